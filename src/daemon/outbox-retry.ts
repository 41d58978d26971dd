import { Clock, Effect, Layer, Schedule } from "effect"
import { Outbox, type OutboxOpenError } from "../delivery/outbox.ts"
import { SystemdNotify } from "./systemd-notify.ts"

/** How often opening is tried again (the watchdog is fed at each try), and how often the reason is repeated in the journal. */
export const openRetry = Schedule.spaced("5 seconds")
const repeatReasonMs = 30_000

/** Opens the outbox and closes it again: whether it can be opened now. */
const probeOpen = (stateDirectory: string): Effect.Effect<void, OutboxOpenError> =>
  Layer.build(Outbox.layer({ stateDirectory })).pipe(Effect.scoped, Effect.asVoid)

/**
 * Waits until the outbox in `stateDirectory` can be opened (directory missing, read-only,
 * full, a stick not mounted yet). Exiting instead would be a crash loop under systemd's
 * `Restart=on-failure`; and nothing may be read before it opens, because input that cannot be
 * stored must not be acknowledged — the broker keeps presses and MQTT scores meanwhile. The
 * reason is logged at once and every 30 s; systemd is told the daemon is up (so its start
 * timeout does not restart it into the same wait) with the reason as its status, and the
 * watchdog is fed while waiting. Bounded by the directory becoming usable, or by SIGTERM.
 */
export const awaitOutbox = Effect.fn("awaitOutbox")(function*(stateDirectory: string) {
  const notify = yield* SystemdNotify
  let waitingSince: number | undefined
  let lastReported = Number.NEGATIVE_INFINITY

  const report = Effect.fnUntraced(function*(error: OutboxOpenError) {
    const now = yield* Clock.currentTimeMillis
    waitingSince ??= now
    if (now - lastReported >= repeatReasonMs) {
      lastReported = now
      yield* Effect.logError(`${error.message}; nothing is read or acknowledged until it can be opened; retrying every 5 s`)
      yield* notify.send({ READY: "1", STATUS: `waiting for the state directory: ${error.message}` })
    }
    yield* notify.send({ WATCHDOG: "1" })
  })

  yield* probeOpen(stateDirectory).pipe(Effect.tapError(report), Effect.retry(openRetry))
  if (waitingSince !== undefined) {
    const waitedS = Math.round(((yield* Clock.currentTimeMillis) - waitingSince) / 1000)
    yield* Effect.logInfo(`state directory ${stateDirectory} usable again after ${waitedS} s: starting`)
  }
})
