import { Context, Effect, Layer, Queue, Schedule, Schema, Stream, SubscriptionRef } from "effect"
import { connect } from "mqtt"
import type { LinkState } from "../domain/received.ts"
import { HeldMessages } from "./held-messages.ts"
import { listeningMarkEveryMs, readListeningMark, writeListeningMark } from "./listening-mark.ts"
import { MqttArrivals } from "./mqtt-arrivals.ts"
import { clientOptions, describeBroker, endClient, type MqttConnectionOptions } from "./mqtt-client.ts"
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
   * for the first stream that subscribes to its topic; mqtt.js hands over nothing behind it
   * meanwhile, so after 5 s it is acknowledged and dropped (mqtt-routes.ts).
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

  const arrivals = new MqttArrivals()
  const client = yield* Effect.acquireRelease(
    Effect.try({
      try: () => {
        // Connected by hand, once its connection's bytes are watched for arrival times.
        const created = connect(options.url, { ...clientOptions(options, reconnectPeriod), manualConnect: true })
        arrivals.watch(created)
        return created.connect()
      },
      catch: (err) => new MqttConfigError({ broker, message: err instanceof Error ? err.message : String(err) })
    }),
    endClient
  )

  const subscriptions = new MqttSubscriptions(client, report)
  const routes = new MqttRoutes(report)
  const markFile = options.listeningMarkFile
  const held = new HeldMessages(markFile === undefined ? null : readListeningMark(markFile))
  /**
   * While connected: asks the broker for a sign of life (a PINGREQ, answered with a PINGRESP), so
   * that the last time we heard from it is never more than a few seconds old, and notes it.
   */
  const markListening = (ping: boolean) =>
    Effect.sync(() => {
      if (!client.connected) return
      if (ping) client.sendPing()
      const heard = held.lastHeard
      if (markFile !== undefined && heard !== null && !writeListeningMark(markFile, heard)) {
        report({ _tag: "markNotWritten", file: markFile })
      }
    })

  client.handleMessage = receiveMessages(arrivals, held, report, (message) => routes.route(message))
  client.on("connect", (connack) => {
    const now = Date.now()
    held.connected(connack.sessionPresent, now)
    // At once, not at the next tick: a run killed within seconds of connecting still leaves its mark.
    if (markFile !== undefined) writeListeningMark(markFile, now)
    report({ _tag: "connected", sessionPresent: connack.sessionPresent })
    subscriptions.connected(connack.sessionPresent)
  })
  client.on("reconnect", () => report({ _tag: "reconnecting" }))
  client.on("packetreceive", () => held.heard(Date.now()))
  client.on("close", () => {
    subscriptions.closed()
    held.dropped()
    report({ _tag: "closed" })
  })
  client.on("error", (err) => report({ _tag: "error", message: err.message }))

  yield* Effect.forkScoped(
    Effect.forever(Effect.flatMap(Queue.take(events), handleEvents(state, broker, reconnectPeriod))).pipe(
      Effect.annotateLogs({ broker })
    )
  )
  yield* Effect.forkScoped(Effect.repeat(markListening(true), Schedule.spaced(listeningMarkEveryMs)))
  // Runs before the client is ended (finalizers run last-added first): the last we heard, kept for the next run.
  yield* Effect.addFinalizer(() => markListening(false))

  const subscribe = (topics: ReadonlyArray<string>, subscribeOptions?: SubscribeOptions): Stream.Stream<MqttMessage> =>
    Stream.callback<MqttMessage>((queue) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const manual = subscribeOptions?.manualAck ?? false
          const route = {
            filters: [...topics],
            deliver: (message: MqttMessage) => {
              Queue.offerUnsafe(queue, message)
              if (!manual) message.ack()
            }
          }
          routes.add(route)
          subscriptions.want(topics)
          return route
        }),
        (route) => Effect.sync(() => routes.remove(route))
      )
    )

  const publish = Effect.fn("MqttConnection.publish")(function*(
    topic: string,
    payload: string | Uint8Array,
    publishOptions?: PublishOptions
  ) {
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

  return MqttConnection.of({
    subscribe,
    publish,
    state: SubscriptionRef.get(state),
    stateChanges: SubscriptionRef.changes(state)
  })
})
