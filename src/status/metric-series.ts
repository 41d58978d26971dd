import { Effect, Metric } from "effect"
import type { DecoderStats } from "../../adapters/decoder.ts"
import type { OutboxDiskStats } from "../delivery/slow-disk.ts"
import * as m from "./metric-catalogue.ts"
import type { StatusSnapshot } from "./status-snapshot.ts"

type AnyMetric = Metric.Metric<number, unknown>

/** Series of one bridge's registry, each carrying the venue label when the config sets one. */
export interface Series {
  readonly registry: Metric.MetricRegistry
  labelled(attributes: Record<string, string>): Record<string, string>
  /** Adds to a counter; nothing for 0, so a series is born only by what it counts (see bornAtZero). */
  add(metric: AnyMetric, attributes: Record<string, string>, value?: number): Effect.Effect<void>
  set(metric: AnyMetric, attributes: Record<string, string>, value: number): Effect.Effect<void>
}

export const makeSeries = (venue: string | undefined): Series => {
  // Set once in the config, on every series: a central Prometheus tells the venues apart by it.
  const venueLabel: Record<string, string> = venue === undefined ? {} : { venue }
  const labelled = (attributes: Record<string, string>) => ({ ...venueLabel, ...attributes })
  const set = (metric: AnyMetric, attributes: Record<string, string>, value: number) =>
    Metric.update(Metric.withAttributes(metric, labelled(attributes)), value)
  return {
    registry: new Map(),
    labelled,
    add: (metric, attributes, value = 1) => (value > 0 ? set(metric, attributes, value) : Effect.void),
    set
  }
}

/** Decoder stats are running totals; a replaced decoder (reload) starts again from zero. */
export const makeDecoderTotals = (series: Series) => {
  const seen = new Map<string, DecoderStats>()
  return (place: string, stats: DecoderStats) =>
    Effect.gen(function*() {
      const before = seen.get(place)
      const restarted = before !== undefined && stats.frames + stats.badFrames < before.frames + before.badFrames
      const base = before === undefined || restarted ? { frames: 0, badFrames: 0, overlong: 0, skippedBytes: 0 } : before
      seen.set(place, { ...stats })
      yield* series.add(m.frames, { place }, stats.frames - base.frames)
      yield* series.add(m.badFrames, { place }, stats.badFrames - base.badFrames)
      yield* series.add(m.overlong, { place }, stats.overlong - base.overlong)
      yield* series.add(m.skippedBytes, { place }, stats.skippedBytes - base.skippedBytes)
    })
}

/** The outbox's disk totals are running totals too, from zero when the outbox opened. */
export const makeDiskTotals = (series: Series) => {
  let seen: OutboxDiskStats | undefined
  return (stats: OutboxDiskStats) =>
    Effect.gen(function*() {
      const base = seen === undefined || stats.fsyncs < seen.fsyncs ? { fsyncs: 0, fsyncSeconds: 0, slowFsyncs: 0, slowCommits: 0 } : seen
      seen = { ...stats }
      // From the first scrape on, at 0 too: a rate over the first slow fsync then counts it.
      const grow = (metric: AnyMetric, by: number) => series.set(metric, {}, Math.max(0, by))
      yield* grow(m.fsyncs, stats.fsyncs - base.fsyncs)
      yield* grow(m.fsyncSeconds, stats.fsyncSeconds - base.fsyncSeconds)
      yield* grow(m.slowFsyncs, stats.slowFsyncs - base.slowFsyncs)
      yield* grow(m.slowCommits, stats.slowCommits - base.slowCommits)
    })
}

/** A record that goes (a later version passed its watch) or changes takes its old series with it. */
export const makeRollbackSeries = (series: Series) => {
  let shown: Record<string, string> | undefined
  return (rollback: StatusSnapshot["rollback"]) =>
    Effect.gen(function*() {
      const attributes = rollback === null ? undefined : series.labelled({ from: rollback.from, to: rollback.to, reason_kind: rollback.reasonKind })
      if (shown !== undefined && JSON.stringify(shown) !== JSON.stringify(attributes)) {
        yield* Metric.remove(Metric.withAttributes(m.rollbackInfo, shown))
        yield* Metric.remove(Metric.withAttributes(m.rolledBackAt, series.labelled({})))
      }
      shown = attributes
      if (rollback === null || attributes === undefined) return
      yield* Metric.update(Metric.withAttributes(m.rollbackInfo, attributes), 1)
      yield* series.set(m.rolledBackAt, {}, rollback.at / 1000)
    })
}

/**
 * Counters of rare events exist at 0 from the first scrape: Prometheus' increase() and rate()
 * see an event only as a change between two samples, so a series born at 1 hides its first
 * 429, link drop or clip outcome from every dashboard and alert.
 */
export const makeBornAtZero = (series: Series, followsClips: boolean) => {
  const born = new Set<string>()
  const rareCounters = (place: string): ReadonlyArray<readonly [AnyMetric, Record<string, string>]> => [
    ...(["score", "click", "undo"] as const).flatMap((kind) =>
      (["transient", "rate_limited", "unauthorized"] as const).map((reason) => [m.retries, { place, kind, reason }] as const)),
    ...(followsClips ? (["clip_ready", "no_clip", "deleted", "unchecked"] as const).map((outcome) => [m.clips, { place, outcome }] as const) : [])
  ]
  return (key: string, counters = rareCounters(key)) => {
    if (born.has(key)) return Effect.void
    born.add(key)
    return Effect.forEach(counters, ([metric, attributes]) => series.set(metric, attributes, 0), { discard: true })
  }
}
