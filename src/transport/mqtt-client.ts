import { Effect, Option, Redacted } from "effect"
import { type IClientOptions, MqttClient } from "mqtt"
import type { MqttArrivals } from "./mqtt-arrivals.ts"
import { type BrokerAddress, brokerAddress, type BrokerTls, openBrokerSocket } from "./mqtt-socket.ts"

export interface MqttConnectionOptions {
  readonly url: string
  /** Stable across restarts: the broker keeps the persistent session under this id. */
  readonly clientId: string
  readonly username?: string
  readonly password?: Redacted.Redacted<string>
  /** PEM contents, not file paths. */
  readonly tls?: BrokerTls
  readonly will?: { readonly topic: string; readonly payload: string; readonly retain: boolean }
  /** Default 1000. */
  readonly reconnectPeriodMs?: number
  /**
   * Where the connection notes when it last heard from the broker (see listening-mark.ts), so
   * that after a restart it knows since when the messages of its resumed session waited.
   * Without it, since an unknown time.
   */
  readonly listeningMarkFile?: string
  /**
   * The filters the daemon's streams subscribe to (its config's topics). A message that arrives
   * before its stream subscribed (a resumed session delivers at once) waits for it only when it
   * matches one of these; any other message no stream takes is on a filter an older config left
   * in the persistent session, and is acknowledged and dropped at once (see mqtt-routes.ts).
   */
  readonly streamFilters?: ReadonlyArray<string>
}

/** How the one mqtt.js client is set up: a persistent session under a stable id. */
export const clientOptions = (
  options: MqttConnectionOptions,
  reconnectPeriod: number,
  address: Pick<BrokerAddress, "username" | "password"> = {}
): IClientOptions => {
  const username = options.username ?? address.username
  const password = options.password === undefined ? address.password : Redacted.value(options.password)
  return {
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
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
    ...(options.will === undefined
      ? {}
      : { will: { topic: options.will.topic, payload: Buffer.from(options.will.payload), retain: options.will.retain, qos: 1 } })
  }
}

/**
 * The client, not yet connected: through mqtt.js's public constructor, with a stream builder
 * that opens the broker's socket and hands mqtt.js the stream `arrivals` reads it through (see
 * mqtt-arrivals.ts). Throws on a URL that names no mqtt:// or mqtts:// broker.
 */
export const createClient = (options: MqttConnectionOptions, reconnectPeriod: number, arrivals: MqttArrivals): MqttClient => {
  const address = brokerAddress(options.url)
  const client = new MqttClient(
    () => arrivals.watch(openBrokerSocket(address, options.tls)),
    { ...clientOptions(options, reconnectPeriod, address), manualConnect: true }
  )
  client.on("packetreceive", (packet) => arrivals.taken(packet))
  return client
}

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
