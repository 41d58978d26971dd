import { Clock, Duration, Effect, Schedule } from "effect"
import type { Scope } from "effect"
import type { LinkState } from "../domain/received.ts"
import { reconnectSchedule } from "./reconnect-schedule.ts"

/**
 * A link that opened but dropped again within this time counts as flapping: the back-off keeps
 * growing and a repeated cause is not warned about again. Without it, a stand-in file at EOF or
 * a gpiomon that exits at once (line busy, no permission) would be retried every 250 ms and
 * warned about each time.
 */
const stableAfterMs = 2_000

export interface LinkSupervision {
  /** Shown in states and logs: a device path, or a command and its lines. */
  readonly target: string
  /** What the link is, for log messages: "input device", "gpiomon". */
  readonly noun: string
  readonly onState: (state: LinkState) => void
  /** Logged when the link comes up; default "<noun> connected". */
  readonly upMessage?: string
  /**
   * One attempt, from opening to loss; returns why it ended. It runs `connected` once the link
   * is open. Its scope closes after every attempt, releasing whatever the attempt opened.
   */
  readonly session: (connected: Effect.Effect<void>) => Effect.Effect<string, never, Scope.Scope>
}

/**
 * Runs `session` forever, reporting link states and sleeping on `reconnectSchedule` between
 * attempts. Never fails; interruption ends the current attempt and closes its scope.
 */
export const superviseLink = Effect.fnUntraced(function*(link: LinkSupervision) {
  const { target, noun, onState } = link
  let backoff = yield* Schedule.toStep(reconnectSchedule)
  let lastReason: string | undefined

  const attempt = Effect.gen(function*() {
    onState({ _tag: "connecting", target })
    let connectedAt: number | undefined
    const connected = Effect.gen(function*() {
      connectedAt = yield* Clock.currentTimeMillis
      onState({ _tag: "connected", target })
      yield* Effect.log(link.upMessage ?? `${noun} connected`)
    })
    const reason = yield* Effect.scoped(link.session(connected))
    const now = yield* Clock.currentTimeMillis
    const stable = connectedAt !== undefined && now - connectedAt >= stableAfterMs
    if (stable) {
      backoff = yield* Schedule.toStep(reconnectSchedule)
      lastReason = undefined
    }
    // The schedule is unbounded, so the step never reports that it is done.
    const [, delay] = yield* Effect.orDie(backoff(now, undefined))
    const retryInMs = Math.round(Duration.toMillis(delay))
    onState({ _tag: "disconnected", target, reason, retryInMs })
    // An absent device fails the same way every couple of seconds for hours: warn once per cause.
    const message = `${noun} ${connectedAt === undefined ? "unavailable" : "lost"}: ${reason}; retrying in ${retryInMs} ms`
    yield* (reason === lastReason ? Effect.logDebug(message) : Effect.logWarning(message))
    lastReason = reason
    yield* Effect.sleep(delay)
  })

  return yield* Effect.forever(attempt)
})
