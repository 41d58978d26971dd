import { type Histogram, monitorEventLoopDelay } from "node:perf_hooks"
import { Clock, Context, Effect, Layer } from "effect"

/**
 * How often the delay is sampled, ms. Node's monitor fires a libuv timer this often and records
 * the time between two firings, so a stall of d ms shows as a delay between d − 2 and d ms: close
 * enough to judge the targets (p99 ≤ 10 ms, max ≤ 50 ms; a stamp wants ≤ 5 ms). Measured on the
 * bench's 2-vCPU VM under --jitless: 1 ms costs 2.6 % of a core, 2 ms 1.8–2.3 %, 5 ms 1.4–1.7 %,
 * 10 ms 0.8–1.0 %; at 5 or 10 ms a 10 ms stall could show as half of it.
 */
export const loopDelayResolutionMs = 2

/** The figures are over the last whole window of this length (a tumbling window: it turns every minute). */
export const loopDelayWindowMs = 60_000

/** How late the event loop ran a timer that was due, over one window, in ms. */
export interface LoopDelayWindow {
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  /** Timer firings in the window: 0 until the first, a handful when the loop was blocked throughout. */
  readonly samples: number
  /** The window's length: a whole window, or, before the first one ended, the time since the start. */
  readonly spanMs: number
}

// The monitor records whole intervals between firings (nanoseconds): the lateness is what exceeds the resolution.
const lateMs = (intervalNs: number) => Math.max(0, intervalNs / 1e6 - loopDelayResolutionMs)

const summarise = (histogram: Histogram, spanMs: number): LoopDelayWindow =>
  histogram.count === 0
    ? { p50Ms: 0, p99Ms: 0, maxMs: 0, samples: 0, spanMs }
    : {
      p50Ms: lateMs(histogram.percentile(50)),
      p99Ms: lateMs(histogram.percentile(99)),
      maxMs: lateMs(histogram.max),
      samples: histogram.count,
      spanMs
    }

/**
 * The event loop's delay (`perf_hooks.monitorEventLoopDelay`): everything the bridge stamps or
 * answers (scoreboard frames, presses, the status page) waits this long when the loop is busy
 * with something else. A whole window rather than "since the last read": /metrics has several
 * readers (Prometheus, `scorebridge doctor`, the bench), and none may empty another's figures.
 */
export class LoopDelay extends Context.Service<LoopDelay, {
  /** The last whole window; before the first one ended, the time since the start. */
  readonly window: Effect.Effect<LoopDelayWindow>
}>()("scorebridge/observability/LoopDelay") {
  static readonly layer = (windowMs: number = loopDelayWindowMs) => Layer.effect(LoopDelay, make(windowMs))
}

const make = Effect.fnUntraced(function*(windowMs: number) {
  const histogram = yield* Effect.acquireRelease(
    Effect.sync(() => {
      const monitor = monitorEventLoopDelay({ resolution: loopDelayResolutionMs })
      monitor.enable()
      return monitor
    }),
    (monitor) => Effect.sync(() => monitor.disable())
  )
  // The window turns on the layer's clock (a TestClock in tests); the delays themselves are real time.
  const clock = yield* Clock.Clock
  const startedAt = clock.currentTimeMillisUnsafe()
  let last: LoopDelayWindow | undefined
  const turn = Effect.sync(() => {
    last = summarise(histogram, windowMs)
    histogram.reset()
  })
  yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(windowMs), turn)))
  return LoopDelay.of({
    window: Effect.sync(() => last ?? summarise(histogram, clock.currentTimeMillisUnsafe() - startedAt))
  })
})
