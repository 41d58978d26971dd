import { Clock, Effect, Layer } from "effect"
import { Outbox } from "../delivery/outbox.ts"
import { SystemdNotify } from "./systemd-notify.ts"

/** How often opening is tried again, and how often the reason is repeated in the journal. */
const retryMs = 5_000
const repeatReasonMs = 30_000

/**
 * Waits until the outbox in `stateDirectory` can be opened (directory missing, read-only,
 * full, a stick not mounted yet). Exiting instead would be a crash loop under systemd's
 * `Restart=on-failure`; and nothing may be read before it opens, because input that cannot be
 * stored must not be acknowledged — the broker keeps presses and MQTT scores meanwhile. The
 * reason is logged at once and every 30 s; systemd is told the daemon is up (so its start
 * timeout does not restart it into the same wait) with the reason as its status, and the
 * watchdog is fed while waiting.
 */
export const awaitOutbox = Effect.fn("awaitOutbox")(function*(stateDirectory: string) {
  const notify = yield* SystemdNotify
  let waitingSince: number | undefined
  let lastReported = Number.NEGATIVE_INFINITY
  // Bounded by the directory becoming usable, or by SIGTERM interrupting the sleep.
  while (true) {
    const opened = yield* Layer.build(Outbox.layer({ stateDirectory })).pipe(Effect.scoped, Effect.result)
    const now = yield* Clock.currentTimeMillis
    if (opened._tag === "Success") {
      if (waitingSince !== undefined) {
        yield* Effect.logInfo(`state directory ${stateDirectory} usable again after ${Math.round((now - waitingSince) / 1000)} s: starting`)
      }
      return
    }
    waitingSince ??= now
    if (now - lastReported >= repeatReasonMs) {
      lastReported = now
      const reason = opened.failure.message
      yield* Effect.logError(`${reason}; nothing is read or acknowledged until it can be opened; retrying every ${retryMs / 1000} s`)
      yield* notify.send({ READY: "1", STATUS: `waiting for the state directory: ${reason}` })
    }
    yield* notify.send({ WATCHDOG: "1" })
    yield* Effect.sleep(retryMs)
  }
})
