import { Effect, Option, Redacted } from "effect"
import type { IClientOptions, MqttClient } from "mqtt"

export interface MqttConnectionOptions {
  readonly url: string
  /** Stable across restarts: the broker keeps the persistent session under this id. */
  readonly clientId: string
  readonly username?: string
  readonly password?: Redacted.Redacted<string>
  /** PEM contents, not file paths. */
  readonly tls?: {
    readonly ca?: string
    readonly cert?: string
    readonly key?: Redacted.Redacted<string>
    readonly rejectUnauthorized?: boolean
  }
  readonly will?: { readonly topic: string; readonly payload: string; readonly retain: boolean }
  /** Default 1000. */
  readonly reconnectPeriodMs?: number
  /**
   * Where the connection notes when it last heard from the broker (see listening-mark.ts), so
   * that after a restart it knows since when the messages of its resumed session waited.
   * Without it, since an unknown time.
   */
  readonly listeningMarkFile?: string
}

/** How the one mqtt.js client is set up and taken down: a persistent session under a stable id. */
export const clientOptions = (options: MqttConnectionOptions, reconnectPeriod: number): IClientOptions => ({
  clientId: options.clientId,
  clean: false,
  reconnectPeriod,
  connectTimeout: 10_000,
  keepalive: 30,
  // We resubscribe ourselves, on every connect, whatever the broker lacks (see mqtt-subscriptions.ts).
  resubscribe: false,
  // With the write cache, mqtt-packet makes a 2-byte Buffer for each of the 65,536 packet ids when
  // the first packet is written and keeps them all: about 7 MB of the daemon's heap (65,536 Buffer
  // objects and their index), for a client that writes a few packets a second. Without it, a
  // packet id is written from a Buffer made for that packet.
  writeCache: false,
  ...(options.username === undefined ? {} : { username: options.username }),
  ...(options.password === undefined ? {} : { password: Redacted.value(options.password) }),
  ...(options.will === undefined
    ? {}
    : { will: { topic: options.will.topic, payload: Buffer.from(options.will.payload), retain: options.will.retain, qos: 1 } }),
  ...(options.tls === undefined
    ? {}
    : {
      ...(options.tls.ca === undefined ? {} : { ca: options.tls.ca }),
      ...(options.tls.cert === undefined ? {} : { cert: options.tls.cert }),
      ...(options.tls.key === undefined ? {} : { key: Redacted.value(options.tls.key) }),
      rejectUnauthorized: options.tls.rejectUnauthorized ?? true
    })
})

/** Ends the client politely; forces it if the broker does not answer in time. */
export const endClient = (client: MqttClient) =>
  Effect.callback<void>((resume) => {
    client.end(false, {}, () => resume(Effect.void))
  }).pipe(
    Effect.timeoutOption("2 seconds"),
    Effect.flatMap((ended) => (Option.isNone(ended) ? Effect.sync(() => client.end(true)) : Effect.void))
  )

/** The broker without credentials a URL may carry, for logs and status. */
export const describeBroker = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return "(invalid broker URL)"
  }
}
