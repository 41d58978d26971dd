import { Context, Effect, Layer, Option, Queue, Schedule, Schema, Stream, SubscriptionRef } from "effect"
import { connect } from "mqtt"
import { MqttArrivals } from "./mqtt-arrivals.ts"
import { clientOptions, describeBroker, endClient, type MqttConnectionOptions } from "./mqtt-client.ts"

export type { MqttConnectionOptions } from "./mqtt-client.ts"
import type { LinkState } from "../domain/received.ts"
import { type Held, HeldMessages } from "./held-messages.ts"
import { listeningMarkEveryMs, readListeningMark, writeListeningMark } from "./listening-mark.ts"
import { receivedAsOf, Redeliveries, strictlyIncreasing } from "./redeliveries.ts"
import { topicMatches } from "./topic-filter.ts"

export interface MqttMessage {
  readonly topic: string
  readonly payload: Uint8Array
  /** ms since epoch: when the PUBLISH's bytes arrived on the connection (mqtt-arrivals.ts), not when mqtt.js handed it over. */
  readonly receivedAt: number
  /** Set for a retained message replayed on subscribe: old state, not a fresh event. */
  readonly retained: boolean
  /**
   * With `manualAck`, the broker's QoS 1 acknowledgement waits for this call: make it once the
   * message is durably handled, so a crash before that gets it redelivered. Idempotent.
   */
  readonly ack: () => void
  /**
   * QoS 1: which message this is to the broker (packet id, topic, payload digest), to store with
   * what it produced; `redelivered` is the broker's DUP flag. A redelivery whose `receivedAs` is
   * already stored was handled by a process that died before acknowledging it.
   */
  readonly receivedAs?: string
  readonly redelivered: boolean
  /**
   * Set when the broker held the message for our session while we were not listening (link or
   * daemon down): it was published after `held.since` (the last we heard from the broker
   * before), not at `receivedAt` (see held-messages.ts).
   */
  readonly held?: Held
}

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
   * broker drop what arrives while the daemon restarts. Messages that arrived before any
   * stream asked for them (a resumed session delivers its queue right after connecting) are
   * kept, up to a bound, and handed to the first stream that subscribes to their topic.
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

/** Most messages held for a stream that has not subscribed yet; the oldest go first. */
const maxUnclaimed = 1_000

type ClientEvent =
  | { readonly _tag: "connected"; readonly sessionPresent: boolean }
  | { readonly _tag: "reconnecting" }
  | { readonly _tag: "closed" }
  | { readonly _tag: "error"; readonly message: string }
  | { readonly _tag: "subscribeFailed"; readonly filters: ReadonlyArray<string>; readonly message: string }
  | { readonly _tag: "unclaimedDropped"; readonly topic: string }
  | { readonly _tag: "redeliveryDropped"; readonly topic: string }
  | { readonly _tag: "markNotWritten"; readonly file: string }

interface Route {
  readonly filters: ReadonlyArray<string>
  readonly deliver: (message: MqttMessage) => void
}

/** How long a message no stream claims may hold up the client before it is acknowledged and dropped. */
const unclaimedAckMs = 5_000

const make = Effect.fnUntraced(function*(options: MqttConnectionOptions) {
  const broker = describeBroker(options.url)
  const reconnectPeriod = options.reconnectPeriodMs ?? 1_000
  const target = broker
  const state = yield* SubscriptionRef.make<LinkState>({ _tag: "connecting", target })
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

  const wanted = new Set<string>() // every filter a stream asked for, for the daemon's lifetime
  const granted = new Set<string>() // acknowledged by the broker in the current session
  const requested = new Set<string>() // SUBSCRIBE sent on this connection, SUBACK pending
  const routes = new Set<Route>()
  const unclaimed: Array<MqttMessage> = []
  const redeliveries = new Redeliveries()
  const stamp = strictlyIncreasing()
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

  const syncSubscriptions = () => {
    if (!client.connected) return
    const missing = [...wanted].filter((filter) => !granted.has(filter) && !requested.has(filter))
    if (missing.length === 0) return
    for (const filter of missing) requested.add(filter)
    client.subscribe(missing, { qos: 1 }, (err, grants) => {
      for (const filter of missing) requested.delete(filter)
      if (err) return report({ _tag: "subscribeFailed", filters: missing, message: err.message })
      const refused = (grants ?? []).filter((grant) => grant.qos >= 128).map((grant) => grant.topic)
      for (const grant of grants ?? []) if (grant.qos < 128) granted.add(grant.topic)
      if (refused.length > 0) report({ _tag: "subscribeFailed", filters: refused, message: "refused by the broker" })
    })
  }

  // mqtt.js sends the PUBACK of a QoS 1 message only when this callback runs, and handles the next
  // incoming packet after it: acknowledging after the message is stored is what makes "nothing lost".
  client.handleMessage = (packet, callback) => {
    // When its bytes came, not when mqtt.js got to it (after the previous message was stored).
    const arrivedAt = arrivals.take(packet.topic) ?? Date.now()
    const wasHeld = held.arrived(arrivedAt)
    const identity = Redeliveries.identity(packet.topic, packet.payload as Uint8Array)
    if (redeliveries.isRedelivery(packet.dup, packet.messageId, identity)) {
      report({ _tag: "redeliveryDropped", topic: packet.topic })
      held.handled(Date.now())
      return callback()
    }
    let acked = false
    const ack = () => {
      if (acked) return
      acked = true
      if (packet.qos > 0) redeliveries.acknowledged(packet.messageId, identity)
      if (wasHeld !== undefined) held.handled(Date.now())
      callback()
    }
    const message: MqttMessage = {
      receivedAt: stamp(arrivedAt),
      topic: packet.topic,
      payload: packet.payload as Uint8Array,
      retained: packet.retain,
      ack,
      redelivered: packet.dup,
      ...(packet.qos > 0 && packet.messageId !== undefined ? { receivedAs: receivedAsOf(packet.messageId, identity) } : {}),
      ...(wasHeld === undefined ? {} : { held: wasHeld })
    }
    let claimed = false
    for (const route of routes) {
      if (route.filters.some((filter) => topicMatches(filter, message.topic))) {
        route.deliver(message)
        claimed = true
      }
    }
    if (claimed) return
    unclaimed.push(message)
    // A subscription left over from an older config must not stall the client forever.
    setTimeout(() => {
      if (!unclaimed.includes(message)) return
      removeWhere(unclaimed, (m) => m === message)
      report({ _tag: "unclaimedDropped", topic: message.topic })
      ack()
    }, unclaimedAckMs).unref()
    if (unclaimed.length > maxUnclaimed) {
      const dropped = unclaimed.shift()!
      report({ _tag: "unclaimedDropped", topic: dropped.topic })
      dropped.ack()
    }
  }
  client.on("connect", (connack) => {
    // Without a session the broker forgot our subscriptions: all of them must be sent again.
    if (!connack.sessionPresent) granted.clear()
    requested.clear()
    const now = Date.now()
    held.connected(connack.sessionPresent, now)
    // At once, not at the next tick: a run killed within seconds of connecting still leaves its mark.
    if (markFile !== undefined) writeListeningMark(markFile, now)
    report({ _tag: "connected", sessionPresent: connack.sessionPresent })
    syncSubscriptions()
  })
  client.on("reconnect", () => report({ _tag: "reconnecting" }))
  client.on("packetreceive", () => held.heard(Date.now()))
  client.on("close", () => {
    requested.clear()
    held.dropped()
    report({ _tag: "closed" })
  })
  client.on("error", (err) => report({ _tag: "error", message: err.message }))

  yield* Effect.forkScoped(
    Effect.forever(Effect.flatMap(Queue.take(events), handleEvents(state, target, reconnectPeriod))).pipe(
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
          const route: Route = {
            filters: [...topics],
            deliver: (message) => {
              Queue.offerUnsafe(queue, message)
              if (!manual) message.ack()
            }
          }
          const matches = (message: MqttMessage) => route.filters.some((filter) => topicMatches(filter, message.topic))
          for (const message of unclaimed.filter(matches)) route.deliver(message)
          removeWhere(unclaimed, matches)
          routes.add(route)
          for (const filter of topics) wanted.add(filter)
          syncSubscriptions()
          return route
        }),
        (route) => Effect.sync(() => routes.delete(route))
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

const handleEvents = (state: SubscriptionRef.SubscriptionRef<LinkState>, target: string, retryInMs: number) => {
  let lastError: string | undefined
  let wasConnected = false
  return Effect.fnUntraced(function*(event: ClientEvent) {
    switch (event._tag) {
      case "connected":
        lastError = undefined
        wasConnected = true
        yield* SubscriptionRef.set(state, { _tag: "connected", target })
        return yield* Effect.log(`MQTT connected (session ${event.sessionPresent ? "resumed" : "new"})`)
      case "reconnecting":
        return yield* SubscriptionRef.set(state, { _tag: "connecting", target })
      case "closed": {
        const reason = lastError ?? "connection closed"
        yield* SubscriptionRef.set(state, { _tag: "disconnected", target, reason, retryInMs })
        // A broker that stays down fails every second: warn when the link drops, not on each retry.
        const message = `MQTT disconnected: ${reason}; retrying every ${retryInMs} ms`
        yield* (wasConnected ? Effect.logWarning(message) : Effect.logDebug(message))
        wasConnected = false
        return
      }
      case "error":
        lastError = event.message
        return
      case "subscribeFailed":
        return yield* Effect.logError(`MQTT subscription to ${event.filters.join(", ")} failed: ${event.message}`)
      case "unclaimedDropped":
        return yield* Effect.logWarning(`MQTT message on ${event.topic} dropped: no stream subscribed to it yet`)
      case "redeliveryDropped":
        return yield* Effect.logInfo(`MQTT redelivery on ${event.topic} of a message already stored and acknowledged: not stored again`)
      case "markNotWritten":
        return yield* Effect.logDebug(`could not note in ${event.file} that the bridge is listening: after a restart, held presses will be taken as older`)
    }
  })
}

const removeWhere = <A>(items: Array<A>, predicate: (item: A) => boolean): void => {
  let kept = 0
  for (const item of items) if (!predicate(item)) items[kept++] = item
  items.length = kept
}
