/** Bytes as a transport received them, stamped on arrival (ms since epoch). */
export interface ReceivedChunk {
  readonly bytes: Uint8Array
  readonly receivedAt: number
}

/** A source link's state, shown on the status page and in logs. */
export type LinkState =
  | { readonly _tag: "connecting"; readonly target: string }
  | { readonly _tag: "connected"; readonly target: string }
  | { readonly _tag: "disconnected"; readonly target: string; readonly reason: string; readonly retryInMs: number }
