import { Clock, Effect } from "effect"
import { loopDelayWindowMs } from "../observability/loop-delay.ts"
import { statusAddress } from "../upgrade/daemon-status.ts"
import { type CheckOutcome, ok, skip, warn } from "./check-outcome.ts"

/** The bench's targets for the loop (issue 34): stamps are taken on it. */
export const loopDelayTargets = { p99Ms: 10, maxMs: 50 }

// A status page answers from memory in a few ms; more than this and something is wrong with it.
const timeoutMs = 2_000

type Metrics =
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "NotRunning" }
  | { readonly _tag: "NoAnswer"; readonly detail: string }

const refused = (cause: unknown) => (cause as { cause?: { code?: unknown } } | null)?.cause?.code === "ECONNREFUSED"

const fetchMetrics = (address: string): Effect.Effect<Metrics> =>
  Effect.tryPromise({
    try: async (signal): Promise<Metrics> => {
      const response = await fetch(`http://${address}/metrics`, { signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) })
      const text = await response.text()
      return response.ok ? { _tag: "Text", text } : { _tag: "NoAnswer", detail: `HTTP ${response.status} for /metrics` }
    },
    catch: (cause) => cause
  }).pipe(Effect.catch((cause) =>
    Effect.succeed<Metrics>(refused(cause) ? { _tag: "NotRunning" } : { _tag: "NoAnswer", detail: cause instanceof Error ? cause.message : String(cause) })
  ))

/** The value of a sample of `name` whose labels include `label` (any other labels, a venue's, beside it). */
const sample = (text: string, name: string, label = ""): number | undefined => {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const labels = line.slice(name.length).split(" ")[0] ?? ""
    if (label !== "" && !labels.includes(label)) continue
    const value = Number(line.slice(line.lastIndexOf(" ") + 1))
    if (Number.isFinite(value)) return value
  }
  return undefined
}

const ms = (seconds: number) => `${seconds * 1000 < 10 ? (seconds * 1000).toFixed(1) : Math.round(seconds * 1000)} ms`

/** "over the last minute", or, for a daemon younger than its first window, since it started. */
const over = (text: string, nowMs: number) => {
  const startedAt = sample(text, "scorebridge_start_time_seconds")
  const ageMs = startedAt === undefined ? Infinity : nowMs - startedAt * 1000
  return ageMs < loopDelayWindowMs ? `over the ${Math.max(1, Math.round(ageMs / 1000))} s since it started` : "over the last minute"
}

/** The running daemon's event-loop delay from its /metrics; `text` as it answered. */
export const loopDelayOutcome = (text: string, nowMs: number): CheckOutcome => {
  const p99 = sample(text, "scorebridge_event_loop_delay_seconds", 'quantile="0.99"')
  const max = sample(text, "scorebridge_event_loop_delay_seconds", 'quantile="1"')
  if (p99 === undefined || max === undefined) return skip("event loop: the running daemon does not report its delay (an older version, or not scorebridge)")
  const line = `event loop: delay p99 ${ms(p99)}, max ${ms(max)} ${over(text, nowMs)}`
  if (p99 * 1000 <= loopDelayTargets.p99Ms && max * 1000 <= loopDelayTargets.maxMs) return ok(line)
  return warn(
    `${line}: over the ${loopDelayTargets.p99Ms} ms (p99) or ${loopDelayTargets.maxMs} ms (max) it should stay within; scoreboard frames and presses are stamped that late`,
    "look for another program taking the CPU (top), a slow disk (journalctl -u scorebridge: \"the disk is slow\", \"on the event loop\"), or swapping (free -m); a single stall (a start, a reload) is out of the figures two minutes later: run doctor again then"
  )
}

/**
 * One line about the running daemon's event loop: how late it ran what was due (p99 and max over
 * the last minute), read from its /metrics where `status.listen` says. Doctor is a process of its
 * own: a daemon that is not running is said, not failed.
 */
export const loopDelayCheck = (listen: string): Effect.Effect<CheckOutcome> =>
  Effect.gen(function*() {
    const at = statusAddress(listen)
    const fetched = yield* fetchMetrics(at)
    if (fetched._tag === "NotRunning") return skip(`event loop: the daemon is not running (nothing answers at ${at}), so its delay is not known`)
    if (fetched._tag === "NoAnswer") return skip(`event loop: the daemon's status page at ${at} does not answer (${fetched.detail}), so its delay is not known`)
    return loopDelayOutcome(fetched.text, yield* Clock.currentTimeMillis)
  })
