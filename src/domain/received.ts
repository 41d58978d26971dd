/** Bytes as a transport received them, stamped on arrival (ms since epoch). */
export interface ReceivedChunk {
  readonly bytes: Uint8Array
  readonly receivedAt: number
  /**
   * For inputs that can be redelivered (MQTT QoS 1): call once what the chunk
   * produced is durably stored; until then the sender still holds it.
   */
  readonly ack?: () => void
}

/** A source link's state, shown on the status page and in logs. */
export type LinkState =
  | { readonly _tag: "connecting"; readonly target: string }
  /** A network listener is open and waits for its console to connect or send. */
  | { readonly _tag: "listening"; readonly target: string }
  | { readonly _tag: "connected"; readonly target: string }
  | { readonly _tag: "disconnected"; readonly target: string; readonly reason: string; readonly retryInMs: number }
