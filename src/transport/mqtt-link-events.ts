import { Effect, SubscriptionRef } from "effect"
import type { LinkState } from "../domain/received.ts"

/**
 * What happens on the MQTT connection, noted from mqtt.js's callbacks (plain functions, outside
 * any fiber) and turned into the link state and log lines by one fiber, in the order it happened.
 */
export type ClientEvent =
  | { readonly _tag: "connected"; readonly sessionPresent: boolean }
  | { readonly _tag: "reconnecting" }
  | { readonly _tag: "closed" }
  | { readonly _tag: "error"; readonly message: string }
  | { readonly _tag: "subscribed"; readonly filters: ReadonlyArray<string> }
  | { readonly _tag: "subscribeFailed"; readonly filters: ReadonlyArray<string>; readonly message: string }
  | { readonly _tag: "messageDropped"; readonly topic: string; readonly reason: DropReason }
  /** A message came on a filter whose stream has not subscribed yet (a resumed session's queue): it waits for it. */
  | { readonly _tag: "awaitingStream"; readonly topic: string; readonly forMs: number }
  | { readonly _tag: "redeliveryDropped"; readonly topic: string }
  | { readonly _tag: "markNotWritten"; readonly file: string }

/**
 * Why a message was acknowledged without being handled: no stream of this daemon subscribes to
 * its filter (`stale`), the stream it waited for did not come in time (`unclaimed`), or the
 * stream it was handed to ended before handling it (`streamEnded`).
 */
export type DropReason = "stale" | "unclaimed" | "streamEnded"

const dropped: Record<DropReason, string> = {
  stale: "no stream of this bridge subscribes to it (a filter an older config left in the broker's session)",
  unclaimed: "no stream subscribed to it yet",
  streamEnded: "the stream it was handed to ended before handling it"
}

const maxStaleWarned = 100

export type Report = (event: ClientEvent) => void

/** One handler for the connection's lifetime: it remembers why the link went down, and whether it had been up. */
export const handleEvents = (state: SubscriptionRef.SubscriptionRef<LinkState>, target: string, retryInMs: number) => {
  let lastError: string | undefined
  let wasConnected = false
  // A chatty publisher on a stale filter would fill the log: each topic is warned of once.
  const warnedStale = new Set<string>()
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
      case "subscribed":
        return yield* Effect.log(`MQTT subscribed to ${event.filters.join(", ")}`)
      case "subscribeFailed":
        return yield* Effect.logError(`MQTT subscription to ${event.filters.join(", ")} failed: ${event.message}`)
      case "messageDropped": {
        const line = `MQTT message on ${event.topic} dropped: ${dropped[event.reason]}`
        if (event.reason !== "stale") return yield* Effect.logWarning(line)
        if (warnedStale.has(event.topic) || warnedStale.size >= maxStaleWarned) return yield* Effect.logDebug(line)
        warnedStale.add(event.topic)
        return yield* Effect.logWarning(`${line}; further ones on it are logged at debug level`)
      }
      case "awaitingStream":
        return yield* Effect.log(`MQTT message on ${event.topic} waits for its stream to subscribe (at most ${event.forMs} ms)`)
      case "redeliveryDropped":
        return yield* Effect.logInfo(`MQTT redelivery on ${event.topic} of a message already stored and acknowledged: not stored again`)
      case "markNotWritten":
        return yield* Effect.logDebug(`could not note in ${event.file} that the bridge is listening: after a restart, held presses will be taken as older`)
    }
  })
}
