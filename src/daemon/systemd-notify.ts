import { Clock, Context, Effect, Layer } from "effect"
import { OutboxHealth } from "../delivery/outbox.ts"
import { runChecked } from "../process/child-process.ts"
import { RateBudget } from "../delivery/rate-budget.ts"
import { Scheduler } from "../delivery/scheduler.ts"

/** What systemd told us through the environment of a `Type=notify` unit. */
export interface NotifySettings {
  /** `$NOTIFY_SOCKET`. */
  readonly socket: string
  /** Half of `$WATCHDOG_USEC` in ms, as sd_watchdog_enabled(3) advises; undefined without `WatchdogSec=`. */
  readonly watchdogPingMs: number | undefined
}

/** Settings from the environment, or undefined when not started by systemd as `Type=notify`. */
export const notifySettings = (env: NodeJS.ProcessEnv = process.env, pid: number = process.pid): NotifySettings | undefined => {
  const socket = env["NOTIFY_SOCKET"]
  if (socket === undefined || socket === "") return undefined
  const usec = Number(env["WATCHDOG_USEC"])
  // WATCHDOG_PID names the process that must ping; a child that inherited the variables must not.
  const forUs = env["WATCHDOG_PID"] === undefined || Number(env["WATCHDOG_PID"]) === pid
  const watchdogPingMs = Number.isFinite(usec) && usec > 0 && forUs ? Math.max(1, Math.floor(usec / 2_000)) : undefined
  return { socket, watchdogPingMs }
}

/** Field values are single lines: a newline would start another field. */
const oneLine = (value: string): string => value.replace(/\s+/gu, " ").trim().slice(0, 200)

/** Longer than systemd-notify's own 5 s wait for PID 1 to confirm (its barrier), so that wait can finish. */
const sendTimeoutMs = 8_000

/**
 * Node cannot send on a unix datagram socket, so each message goes through a `systemd-notify`
 * child. It is not the main PID, hence `NotifyAccess=all` in the unit; systemd-notify waits until
 * PID 1 has processed the message, so the message is attributed to the unit although its sender
 * then exits. It is given the socket and nothing else of ours (a tool's environment: PATH, locale).
 */
const sendThroughChild = (socket: string, fields: Readonly<Record<string, string>>): Effect.Effect<void> => {
  const args = Object.entries(fields).map(([name, value]) => `${name}=${oneLine(value)}`)
  const failed = (why: string) => Effect.logWarning(`systemd-notify ${Object.keys(fields).join(",")} failed: ${oneLine(why)}`)
  return runChecked("systemd-notify", args, { timeoutMs: sendTimeoutMs, env: { NOTIFY_SOCKET: socket } }).pipe(
    Effect.matchEffect({ onFailure: (error) => failed(error.message), onSuccess: () => Effect.void })
  )
}

/** Readiness, status and watchdog messages to systemd; every send is a no-op outside a notify unit. */
export class SystemdNotify extends Context.Service<SystemdNotify, {
  readonly settings: NotifySettings | undefined
  send(fields: Readonly<Record<string, string>>): Effect.Effect<void>
}>()("scorebridge/daemon/SystemdNotify") {
  static readonly layer = Layer.sync(SystemdNotify, () => {
    const settings = notifySettings()
    return SystemdNotify.of({
      settings,
      send: (fields) => settings === undefined ? Effect.void : sendThroughChild(settings.socket, fields)
    })
  })
}

/** The dispatch loop goes round at least every 5 s; four times that is stuck, not busy. */
export const schedulerStuckAfterMs = 20_000
/** STATUS= refresh when systemd gave no watchdog interval. */
const statusEveryMs = 30_000

/** The running daemon generation, as the watchdog sees it. */
export interface WatchedDaemon {
  readonly places: number
  readonly context: Context.Context<Scheduler | OutboxHealth | RateBudget>
}

/** One line for `systemctl status`: places, what waits in the outbox, and whether the token is paused. */
const summary = (places: number) =>
  Effect.gen(function*() {
    const counts = yield* (yield* OutboxHealth).counts.pipe(Effect.orElseSucceed(() => []))
    const total = (state: string) => counts.filter((c) => c.state === state).reduce((n, c) => n + c.count, 0)
    const budget = yield* (yield* RateBudget).snapshot
    const parts = [
      `${places} place${places === 1 ? "" : "s"}`,
      `${total("pending")} pending`,
      `${total("dead")} dead`,
      `${budget.sentLastMinute} sent last minute`
    ]
    if (budget.suspended !== null) parts.push(`paused: ${budget.suspended}`)
    return parts.join(", ")
  })

/**
 * Pings the watchdog every half interval and refreshes STATUS=, for the life of the process.
 * The ping comes from a fiber, so a blocked event loop stops it; and while a generation runs,
 * only if its delivery scheduler still goes round. While a generation is being built (start,
 * reload: bounded by their own timeouts) `current` is undefined and the ping goes on, or a slow
 * start would be killed as hung.
 */
export const runWatchdog = (current: () => WatchedDaemon | undefined) =>
  Effect.gen(function*() {
    const notify = yield* SystemdNotify
    const settings = notify.settings
    if (settings === undefined) return
    const ping = settings.watchdogPingMs
    const tick = Effect.gen(function*() {
      const running = current()
      if (running === undefined) return ping === undefined ? undefined : yield* notify.send({ WATCHDOG: "1" })
      const check = Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const { lastLoopAt } = yield* (yield* Scheduler).snapshot
        const status = `running: ${yield* summary(running.places)}`
        if (ping === undefined) return yield* notify.send({ STATUS: status })
        if (now - lastLoopAt > schedulerStuckAfterMs) {
          return yield* Effect.logError(
            `delivery scheduler has not run for ${Math.round((now - lastLoopAt) / 1000)} s: no watchdog ping, systemd will restart the service`
          )
        }
        yield* notify.send({ WATCHDOG: "1", STATUS: status })
      })
      yield* Effect.provideContext(check, running.context)
    })
    yield* Effect.forever(Effect.andThen(Effect.sleep(ping ?? statusEveryMs), tick))
  })
