import { Clock, Context, Effect, Exit, Layer, Queue, Schedule, Schema, Stream, SubscriptionRef } from "effect"
import type { MqttClient } from "mqtt"
import type { LinkState } from "../domain/received.ts"
import { HeldMessages } from "./held-messages.ts"
import { listeningMarkEveryMs, listeningMarkWriter, readListeningMark } from "./listening-mark.ts"
import { MqttArrivals } from "./mqtt-arrivals.ts"
import { createClient, describeBroker, endClient, type MqttConnectionOptions } from "./mqtt-client.ts"
import { type ClientEvent, handleEvents } from "./mqtt-link-events.ts"
import { type MqttMessage, receiveMessages } from "./mqtt-message.ts"
import { MqttRoutes } from "./mqtt-routes.ts"
import { MqttSubscriptions } from "./mqtt-subscriptions.ts"

export type { MqttConnectionOptions } from "./mqtt-client.ts"
export type { MqttMessage } from "./mqtt-message.ts"

export interface SubscribeOptions {
  /** Hold the PUBACK until the consumer calls `ack` (default: acknowledged on receipt). */
  readonly manualAck?: boolean
}

export interface PublishOptions {
  readonly retain?: boolean
  /** Default 1. */
  readonly qos?: 0 | 1
}

export class MqttConfigError extends Schema.TaggedError<MqttConfigError>()("MqttConfigError", {
  broker: Schema.String,
  message: Schema.String
}) {}

export class MqttPublishError extends Schema.TaggedError<MqttPublishError>()("MqttPublishError", {
  topic: Schema.String,
  message: Schema.String
}) {}

/**
 * The daemon's one MQTT client: a persistent session (clean: false) under a stable client id,
 * so QoS 1 messages sent while the daemon or the broker was away are delivered when it is back.
 */
export class MqttConnection extends Context.Service<MqttConnection, {
  /**
   * Messages on any of `topics` (filters, wildcards allowed), subscribed at QoS 1.
   * Subscriptions outlive the stream on purpose: unsubscribing at shutdown would make the
   * broker drop what arrives while the daemon restarts. A message that arrived before any
   * stream asked for it (a resumed session delivers its queue right after connecting) is kept
   * for the first stream that subscribes to its topic when it is on one of `streamFilters`;
   * mqtt.js hands over nothing behind it meanwhile, so after 5 s it is acknowledged and
   * dropped, and one on no such filter at once (mqtt-routes.ts). A message on the filters of
   * several streams is acknowledged once each of them did (mqtt-shares.ts).
   */
  subscribe(topics: ReadonlyArray<string>, options?: SubscribeOptions): Stream.Stream<MqttMessage>
  /**
   * Completes once the broker acknowledged (QoS 1) or the packet was written (QoS 0). While
   * disconnected the message is queued and this waits for the reconnect: add a timeout where
   * that matters. Interrupting does not withdraw a queued message.
   */
  publish(topic: string, payload: string | Uint8Array, options?: PublishOptions): Effect.Effect<void, MqttPublishError>
  /** Current link state, for the status page. */
  readonly state: Effect.Effect<LinkState>
  /** The current state, then every change. */
  readonly stateChanges: Stream.Stream<LinkState>
}>()("scorebridge/transport/MqttConnection") {
  static readonly layer = (options: MqttConnectionOptions): Layer.Layer<MqttConnection, MqttConfigError> =>
    Layer.effect(MqttConnection, make(options))
}

const make = Effect.fnUntraced(function*(options: MqttConnectionOptions) {
  const broker = describeBroker(options.url)
  const reconnectPeriod = options.reconnectPeriodMs ?? 1_000
  const state = yield* SubscriptionRef.make<LinkState>({ _tag: "connecting", target: broker })
  const events = yield* Queue.unbounded<ClientEvent>()
  const report = (event: ClientEvent) => {
    Queue.offerUnsafe(events, event)
  }

  const clock = yield* Clock.Clock
  const arrivals = new MqttArrivals(() => clock.currentTimeMillisUnsafe())
  const client = yield* Effect.acquireRelease(
    Effect.try({
      try: () => createClient(options, reconnectPeriod, arrivals),
      catch: (err) => new MqttConfigError({ broker, message: err instanceof Error ? err.message : String(err) })
    }),
    endClient
  )
  const subscriptions = new MqttSubscriptions(client, report)
  const routes = new MqttRoutes(report, options.streamFilters ?? [])
  const markFile = options.listeningMarkFile
  const held = new HeldMessages(markFile === undefined ? null : readListeningMark(markFile))
  const mark = markFile === undefined ? undefined : markWriter(markFile, report)
  listen(client, { arrivals, held, subscriptions, routes, report, mark })
  // Connected by hand, once every handler is in place.
  client.connect()

  yield* Effect.forkScoped(
    Effect.forever(Effect.flatMap(Queue.take(events), handleEvents(state, broker, reconnectPeriod))).pipe(
      Effect.annotateLogs({ broker })
    )
  )
  const markListening = listeningMarker(client, held, mark)
  yield* Effect.forkScoped(Effect.repeat(markListening(true), Schedule.spaced(listeningMarkEveryMs)))
  // Runs before the client is ended (finalizers run last-added first): the last we heard, kept for the next run.
  yield* Effect.addFinalizer(() => markListening(false))

  return MqttConnection.of({
    subscribe: subscriber(routes, subscriptions),
    publish: publisher(client),
    state: SubscriptionRef.get(state),
    stateChanges: SubscriptionRef.changes(state)
  })
})

/** mqtt.js's callbacks for the client's lifetime: messages to their streams, and what happens to the link. */
const listen = (client: MqttClient, parts: {
  readonly arrivals: MqttArrivals
  readonly held: HeldMessages
  readonly subscriptions: MqttSubscriptions
  readonly routes: MqttRoutes
  readonly report: (event: ClientEvent) => void
  readonly mark: MarkWriter | undefined
}): void => {
  const { held, subscriptions, report, mark } = parts
  client.handleMessage = receiveMessages(parts.arrivals, held, report, (message) => parts.routes.route(message))
  client.on("connect", (connack) => {
    const now = parts.arrivals.now()
    held.connected(connack.sessionPresent, now)
    // At once, not at the next tick: a run killed within seconds of connecting still leaves its mark.
    void mark?.(now)
    report({ _tag: "connected", sessionPresent: connack.sessionPresent })
    subscriptions.connected(connack.sessionPresent)
  })
  client.on("reconnect", () => report({ _tag: "reconnecting" }))
  client.on("packetreceive", () => held.heard(parts.arrivals.now()))
  client.on("close", () => {
    subscriptions.closed()
    held.dropped()
    report({ _tag: "closed" })
  })
  client.on("error", (err) => report({ _tag: "error", message: err.message }))
}

/** Writes the listening mark (off the event loop), reporting a write that failed. */
type MarkWriter = (at: number) => Promise<void>

const markWriter = (file: string, report: (event: ClientEvent) => void): MarkWriter => {
  const write = listeningMarkWriter(file)
  return (at) => write(at).then((written) => written ? undefined : report({ _tag: "markNotWritten", file }))
}

/**
 * While connected: asks the broker for a sign of life (a PINGREQ, answered with a PINGRESP), so
 * that the last time we heard from it is never more than a few seconds old, and notes it.
 */
const listeningMarker = (client: MqttClient, held: HeldMessages, mark: MarkWriter | undefined) =>
  (ping: boolean) =>
    Effect.suspend(() => {
      if (!client.connected) return Effect.void
      if (ping) client.sendPing()
      const heard = held.lastHeard
      return mark === undefined || heard === null ? Effect.void : Effect.promise(() => mark(heard))
    })

/**
 * A stream's route lives from its first pull to its end; how it ended says what becomes of a
 * message it holds unacknowledged (see mqtt-shares.ts): its end is seen on the stream, where an
 * interruption is told from a completion or a failure.
 */
const subscriber = (routes: MqttRoutes, subscriptions: MqttSubscriptions) =>
  (topics: ReadonlyArray<string>, subscribeOptions?: SubscribeOptions): Stream.Stream<MqttMessage> =>
    Stream.suspend(() => {
      const manual = subscribeOptions?.manualAck ?? false
      // Until the stream is pulled, nothing is routed to it.
      let offer = (_message: MqttMessage): void => {}
      const route = {
        filters: [...topics],
        deliver: (message: MqttMessage) => {
          offer(message)
          if (!manual) message.ack()
        }
      }
      return Stream.callback<MqttMessage>((queue) =>
        Effect.sync(() => {
          offer = (message) => {
            Queue.offerUnsafe(queue, message)
          }
          routes.add(route)
          subscriptions.want(topics)
        })
      ).pipe(Stream.onExit((exit) => Effect.sync(() => routes.remove(route, Exit.hasInterrupts(exit) ? "interrupted" : "ended"))))
    })

const publisher = (client: MqttClient) =>
  Effect.fn("MqttConnection.publish")(function*(topic: string, payload: string | Uint8Array, publishOptions?: PublishOptions) {
    const body = typeof payload === "string" ? payload : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)
    yield* Effect.callback<void, MqttPublishError>((resume) => {
      client.publish(
        topic,
        body,
        { qos: publishOptions?.qos ?? 1, retain: publishOptions?.retain ?? false },
        (err) => resume(err ? Effect.fail(new MqttPublishError({ topic, message: err.message })) : Effect.void)
      )
    })
  })
