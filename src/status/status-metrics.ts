import { Context, Effect, Metric, Option } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { bridgeVersion } from "../domain/version.ts"
import type { BridgeEvent } from "../bus/bridge-events.ts"
import { LoopDelay } from "../observability/loop-delay.ts"
import * as m from "./metric-catalogue.ts"
import { makeBornAtZero, makeDecoderTotals, makeDiskTotals, makeRollbackSeries, makeSeries, type Series } from "./metric-series.ts"
import type { StatusSnapshot } from "./status-snapshot.ts"

const snake = (text: string) => text.replace(/-/gu, "_").replace(/([a-z])([A-Z])/gu, "$1_$2").toLowerCase()

/** The counters a bridge event moves. */
const observeEvent = (series: Series, event: BridgeEvent): Effect.Effect<void> => {
  switch (event._tag) {
    case "Entry":
      return series.add(m.entriesQueued, { place: event.place })
    case "Settled": {
      const outcome = event.outcome
      const tag = outcome._tag === "Retry" ? snake(outcome.kind) : snake(outcome._tag)
      return Effect.andThen(
        series.add(m.requests, { place: event.place, kind: event.kind, outcome: tag }),
        outcome._tag === "Retry"
          ? series.add(m.retries, { place: event.place, kind: event.kind, reason: tag })
          : series.add(m.settled, { place: event.place, kind: event.kind, outcome: tag })
      )
    }
    case "Press":
      return series.add(m.presses, { place: event.place, gesture: event.press.gesture, result: snake(event.result._tag) })
    case "ClipSettled": {
      const readyAt = event.outcome === "clip-ready" ? event.detail.readyAt : undefined
      return Effect.andThen(
        series.add(m.clips, { place: event.place, outcome: snake(event.outcome) }),
        readyAt === undefined ? Effect.void : series.set(m.pressToClip, { place: event.place }, Math.max(0, (readyAt - event.pressedAt) / 1000))
      )
    }
    case "Finish":
      return series.add(m.finishes, { place: event.place })
    // Decoder counters are read from the snapshot at each scrape: readings come many times a second.
    case "Reading":
    case "Activity":
    case "Link":
    case "ButtonLink":
      return Effect.void
  }
}

/** The event loop's delay, where the bridge measures it (the daemon provides LoopDelay; a bare status model does not). */
const loopDelaySeries = (series: Series) =>
  Effect.gen(function*() {
    const monitor = yield* Effect.serviceOption(LoopDelay)
    if (Option.isNone(monitor)) return
    const window = yield* monitor.value.window
    if (window.samples === 0) return
    const quantiles = [["0.5", window.p50Ms], ["0.99", window.p99Ms], ["1", window.maxMs]] as const
    for (const [quantile, ms] of quantiles) yield* series.set(m.loopDelay, { quantile }, ms / 1000)
  })

/** The gauges a snapshot sets, and the running totals it carries (decoders, the outbox's disk). */
const makeRender = (series: Series, followsClips: boolean) => {
  const decoderTotals = makeDecoderTotals(series)
  const diskTotals = makeDiskTotals(series)
  const rollbackSeries = makeRollbackSeries(series)
  const bornAtZero = makeBornAtZero(series, followsClips)
  const { set } = series

  // The time left is absent while no past entry is being sent: a stale figure would say it drains.
  const pastSeries = (place: string, past: StatusSnapshot["places"][number]["queue"]["pastEvents"], now: number) =>
    Effect.gen(function*() {
      yield* set(m.pastEntries, { place }, past.entries)
      if (past.throughAt !== null) yield* set(m.pastThrough, { place }, Math.max(0, (past.throughAt - now) / 1000))
      else yield* Metric.remove(Metric.withAttributes(m.pastThrough, series.labelled({ place })))
    })

  const placeSeries = (place: StatusSnapshot["places"][number], generatedAt: number) =>
    Effect.gen(function*() {
      yield* bornAtZero(place.key)
      // A pool's first finish of the day is a change increase() sees: its series exists at 0 before.
      if (place.race !== null || place.sport === "swimming") yield* bornAtZero(`finishes:${place.key}`, [[m.finishes, { place: place.key }]])
      yield* decoderTotals(place.key, place.decoder)
      yield* set(m.live, { place: place.key }, place.live ? 1 : 0)
      yield* set(m.eventRunning, { place: place.key }, place.event?.key != null ? 1 : 0)
      for (const kind of ["score", "click", "undo"] as const) yield* set(m.pending, { place: place.key, kind }, place.queue[kind])
      yield* pastSeries(place.key, place.queue.pastEvents, generatedAt)
      if (followsClips) yield* set(m.withoutClip, { place: place.key }, place.clipProblem?.clicks ?? 0)
    })

  return (snapshot: StatusSnapshot) =>
    Effect.gen(function*() {
      for (const place of snapshot.places) yield* placeSeries(place, snapshot.generatedAt)
      yield* set(m.info, { version: bridgeVersion }, 1)
      yield* set(m.startTime, {}, snapshot.startedAt / 1000)
      if (snapshot.clockSkewMs !== null) yield* set(m.clockSkew, {}, snapshot.clockSkewMs / 1000)
      yield* diskTotals(snapshot.outboxDisk)
      yield* rollbackSeries(snapshot.rollback)
      for (const link of snapshot.links) yield* bornAtZero(`link:${link.name}`, [[m.linkConnects, { link: link.name }], [m.linkDrops, { link: link.name }]])
      for (const link of snapshot.links) yield* set(m.linkUp, { link: link.name }, link.up ? 1 : 0)
      const token = snapshot.token
      yield* set(m.sentLastMinute, {}, token.sentLastMinute)
      yield* set(m.limitPerMinute, {}, token.limitPerMinute)
      yield* set(m.suspended, {}, token.suspended === null ? 0 : 1)
      yield* set(m.backoff, {}, token.backoffUntil === null ? 0 : Math.max(0, (token.backoffUntil - snapshot.generatedAt) / 1000))
      yield* loopDelaySeries(series)
      return PrometheusMetrics.formatUnsafe(Context.make(Metric.MetricRegistry, series.registry))
    })
}

/**
 * Prometheus counters and gauges of one bridge, in a registry of its own so
 * two bridges in one process (tests) never mix their figures. Counters follow
 * bridge events, decoder counters and gauges are taken from the status
 * snapshot at each scrape. `followsClips`: clicks are followed, so each place has
 * its clicks-without-clip gauge. `venue`: a label on every series (a fleet's central Prometheus).
 */
export const makeStatusMetrics = (options: { readonly followsClips: boolean; readonly venue?: string | undefined }) => {
  const series = makeSeries(options.venue)
  const inRegistry = <A>(effect: Effect.Effect<A>) => Effect.provideService(effect, Metric.MetricRegistry, series.registry)
  const render = makeRender(series, options.followsClips)
  return {
    observe: (event: BridgeEvent) => inRegistry(observeEvent(series, event)),
    /** A link changed state; `link` names it, e.g. scoreboard:court-1, button:remote-1, mqtt. */
    linkChanged: (link: string, up: boolean) => inRegistry(series.add(up ? m.linkConnects : m.linkDrops, { link })),
    delivered: (place: string, kind: string, seconds: number) => inRegistry(series.set(m.latency, { place, kind }, Math.max(0, seconds))),
    render: (snapshot: StatusSnapshot) => inRegistry(render(snapshot))
  }
}
