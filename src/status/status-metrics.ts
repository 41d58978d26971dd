import { Context, Effect, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import type { DecoderStats } from "../../adapters/decoder.ts"
import { type OutboxDiskStats, slowDiskThresholdMs } from "../delivery/slow-disk.ts"
import { bridgeVersion } from "../domain/version.ts"
import type { BridgeEvent } from "../bus/bridge-events.ts"
import type { StatusSnapshot } from "./status-snapshot.ts"

const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })
const gauge = (name: string, description: string) => Metric.gauge(name, { description })

const frames = counter("scorebridge_frames_total", "Scoreboard frames (lines, payloads) that decoded")
const badFrames = counter("scorebridge_bad_frames_total", "Scoreboard frames rejected: bad checksum, malformed, out of range")
const overlong = counter("scorebridge_overlong_frames_total", "Scoreboard frames discarded for exceeding the maximum length")
const skippedBytes = counter("scorebridge_skipped_bytes_total", "Bytes skipped while resynchronising on the scoreboard stream")
const entriesQueued = counter("scorebridge_entries_queued_total", "Score changes stored in the outbox")
const settled = counter("scorebridge_items_settled_total", "Outbox items settled, by kind (score, click, undo) and outcome (delivered, warning, dead, missed)")
const retries = counter("scorebridge_delivery_retries_total", "Attempts to be retried, by reason (transient, rate_limited = 429, unauthorized = 401)")
const requests = counter("scorebridge_requests_total", "Delivery requests answered or failed (one per attempt)")
const presses = counter("scorebridge_presses_total", "Button gestures mapped to a place, by result (queued, undo_queued, no_event, nothing_to_undo, not_stored, repeat: a device re-publishing a press already handled)")
const linkConnects = counter("scorebridge_link_connects_total", "Times a link came up; more than one means reconnects")
const linkDrops = counter("scorebridge_link_drops_total", "Times a link went down")
const clips = counter("scorebridge_clips_total", "Followed clicks whose outcome is known, by outcome: clip_ready (a clip has a video), no_clip (none by the deadline: camera off?), deleted (undone or deleted at the service), unchecked (could not be read, given up)")
const fsyncs = counter("scorebridge_outbox_fsyncs_total", "fsyncs of the outbox's log that ended (failed ones too)")
const fsyncSeconds = counter("scorebridge_outbox_fsync_seconds_total", "Time spent in fsyncs of the outbox's log: divided by scorebridge_outbox_fsyncs_total, the mean fsync")
const slowFsyncs = counter("scorebridge_outbox_slow_fsyncs_total", `fsyncs of the outbox's log slower than ${slowDiskThresholdMs} ms: a worn SD card or eMMC`)
const slowCommits = counter("scorebridge_outbox_slow_commits_total", `Outbox commits held on the event loop longer than ${slowDiskThresholdMs} ms: another program holds the file's lock, or the disk is very slow`)
const pressToClip = Metric.histogram("scorebridge_press_to_clip_seconds", {
  description: "From the press (or auto-highlight) to the read that found its clip ready; reads are spaced, so an upper bound",
  boundaries: [3, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300]
})
const latency = Metric.histogram("scorebridge_delivery_latency_seconds", {
  description: "From capture (frame received, button pressed) to the service accepting the item",
  boundaries: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800]
})

const live = gauge("scorebridge_place_live", "1 when the place is live (scoreboard data flowing and delivery not stuck)")
const eventRunning = gauge("scorebridge_event_running", "1 when the bridge knows an event is running on the place, 0 when none or not known")
const info = gauge("scorebridge_bridge_info", "Always 1 while the bridge answers, labelled with its version (and venue): a venue whose series vanish is not reporting")
const linkUp = gauge("scorebridge_link_up", "1 when the link is connected")
const pending = gauge("scorebridge_outbox_pending", "Items waiting in the outbox")
const sentLastMinute = gauge("scorebridge_requests_last_minute", "Requests sent in the last 60 s on the token")
const limitPerMinute = gauge("scorebridge_request_limit_per_minute", "The token's request limit, per minute")
const suspended = gauge("scorebridge_token_suspended", "1 while delivery is paused because the service rejected the token (401)")
const backoff = gauge("scorebridge_backoff_seconds", "Remaining 429 back-off of the token")
const clockSkew = gauge("scorebridge_clock_skew_seconds", "Service clock minus this machine's, from the last answer's Date header (about ±1 s); absent until the service answered")
const startTime = gauge("scorebridge_start_time_seconds", "When the bridge started or was last reloaded, Unix seconds: a change is a restart")
const rollbackInfo = gauge(
  "scorebridge_rollback_info",
  "1 while the upgrade guard's record of an automatic rollback is on the mini-PC: the upgrade it undid (from the kept version, to the one that failed) and why (reason_kind: never_ready, down, restart_loop, not_delivering); absent without a record"
)
const rolledBackAt = gauge("scorebridge_rolled_back_at_seconds", "When the upgrade guard rolled the bridge back to the kept version, Unix seconds; absent without a record")
const withoutClip = gauge("scorebridge_clicks_without_clip", "Clicks in a row that made no clip, once there are clips.problemAfterClicks of them (the court's problem line); 0 when fine")

const snake = (text: string) => text.replace(/-/gu, "_").replace(/([a-z])([A-Z])/gu, "$1_$2").toLowerCase()

/**
 * Prometheus counters and gauges of one bridge, in a registry of its own so
 * two bridges in one process (tests) never mix their figures. Counters follow
 * bridge events, decoder counters and gauges are taken from the status
 * snapshot at each scrape. `followsClips`: clicks are followed, so each place has
 * its clicks-without-clip gauge. `venue`: a label on every series (a fleet's central Prometheus).
 */
export const makeStatusMetrics = (options: { readonly followsClips: boolean; readonly venue?: string | undefined }) => {
  const { followsClips } = options
  // Set once in the config, on every series: a central Prometheus tells the venues apart by it.
  const venue: Record<string, string> = options.venue === undefined ? {} : { venue: options.venue }
  const labelled = (attributes: Record<string, string>): Record<string, string> => ({ ...venue, ...attributes })
  const registry: Metric.MetricRegistry = new Map()
  const inRegistry = <A>(effect: Effect.Effect<A>) => Effect.provideService(effect, Metric.MetricRegistry, registry)
  const add = (metric: Metric.Metric<number, unknown>, attributes: Record<string, string>, value = 1) =>
    value > 0 ? Metric.update(Metric.withAttributes(metric, labelled(attributes)), value) : Effect.void
  const seenStats = new Map<string, DecoderStats>()
  let seenDisk: OutboxDiskStats | undefined
  let shownRollback: Record<string, string> | undefined

  // A record that goes (a later version passed its watch) or changes takes its old series with it.
  const rollbackSeries = (rollback: StatusSnapshot["rollback"]) =>
    Effect.gen(function*() {
      const attributes = rollback === null ? undefined : labelled({ from: rollback.from, to: rollback.to, reason_kind: rollback.reasonKind })
      if (shownRollback !== undefined && JSON.stringify(shownRollback) !== JSON.stringify(attributes)) {
        yield* Metric.remove(Metric.withAttributes(rollbackInfo, shownRollback))
        yield* Metric.remove(Metric.withAttributes(rolledBackAt, labelled({})))
      }
      shownRollback = attributes
      if (rollback === null || attributes === undefined) return
      yield* Metric.update(Metric.withAttributes(rollbackInfo, attributes), 1)
      yield* Metric.update(Metric.withAttributes(rolledBackAt, labelled({})), rollback.at / 1000)
    })

  // The outbox's disk totals are running totals too, from zero when the outbox opened.
  const diskDelta = (stats: OutboxDiskStats) =>
    Effect.gen(function*() {
      const before = seenDisk
      const base = before === undefined || stats.fsyncs < before.fsyncs
        ? { fsyncs: 0, fsyncSeconds: 0, slowFsyncs: 0, slowCommits: 0 }
        : before
      seenDisk = { ...stats }
      // From the first scrape on, at 0 too: a rate over the first slow fsync then counts it.
      const grow = (metric: Metric.Metric<number, unknown>, by: number) =>
        Metric.update(Metric.withAttributes(metric, labelled({})), Math.max(0, by))
      yield* grow(fsyncs, stats.fsyncs - base.fsyncs)
      yield* grow(fsyncSeconds, stats.fsyncSeconds - base.fsyncSeconds)
      yield* grow(slowFsyncs, stats.slowFsyncs - base.slowFsyncs)
      yield* grow(slowCommits, stats.slowCommits - base.slowCommits)
    })

  // Decoder stats are running totals; a replaced decoder (reload) starts again from zero.
  const statsDelta = (place: string, stats: DecoderStats) =>
    Effect.gen(function*() {
      const before = seenStats.get(place)
      const restarted = before !== undefined && stats.frames + stats.badFrames < before.frames + before.badFrames
      const base = before === undefined || restarted ? { frames: 0, badFrames: 0, overlong: 0, skippedBytes: 0 } : before
      seenStats.set(place, { ...stats })
      yield* add(frames, { place }, stats.frames - base.frames)
      yield* add(badFrames, { place }, stats.badFrames - base.badFrames)
      yield* add(overlong, { place }, stats.overlong - base.overlong)
      yield* add(skippedBytes, { place }, stats.skippedBytes - base.skippedBytes)
    })

  const observe = (event: BridgeEvent) =>
    inRegistry(Effect.gen(function*() {
      switch (event._tag) {
        case "Entry":
          return yield* add(entriesQueued, { place: event.place })
        case "Settled": {
          const outcome = event.outcome
          const tag = outcome._tag === "Retry" ? snake(outcome.kind) : snake(outcome._tag)
          yield* add(requests, { place: event.place, kind: event.kind, outcome: tag })
          if (outcome._tag === "Retry") return yield* add(retries, { place: event.place, kind: event.kind, reason: tag })
          return yield* add(settled, { place: event.place, kind: event.kind, outcome: tag })
        }
        case "Press":
          return yield* add(presses, { place: event.place, gesture: event.press.gesture, result: snake(event.result._tag) })
        case "ClipSettled": {
          yield* add(clips, { place: event.place, outcome: snake(event.outcome) })
          const readyAt = event.outcome === "clip-ready" ? event.detail.readyAt : undefined
          if (readyAt === undefined) return
          return yield* Metric.update(Metric.withAttributes(pressToClip, labelled({ place: event.place })), Math.max(0, (readyAt - event.pressedAt) / 1000))
        }
        // Decoder counters are read from the snapshot at each scrape: readings come many times a second.
        case "Reading":
        case "Activity":
        case "Link":
        case "ButtonLink":
          return
      }
    }))

  /**
   * Counters of rare events exist at 0 from the first scrape: Prometheus' increase() and rate()
   * see an event only as a change between two samples, so a series born at 1 hides its first
   * 429, link drop or clip outcome from every dashboard and alert.
   */
  const born = new Set<string>()
  const rareCounters = (place: string): ReadonlyArray<readonly [Metric.Metric<number, unknown>, Record<string, string>]> => [
    ...(["score", "click", "undo"] as const).flatMap((kind) =>
      (["transient", "rate_limited", "unauthorized"] as const).map((reason) => [retries, { place, kind, reason }] as const)),
    ...(followsClips ? (["clip_ready", "no_clip", "deleted", "unchecked"] as const).map((outcome) => [clips, { place, outcome }] as const) : [])
  ]
  const bornAtZero = (key: string, series = rareCounters(key)) => {
    if (born.has(key)) return Effect.void
    born.add(key)
    return Effect.forEach(series, ([metric, attributes]) => Metric.update(Metric.withAttributes(metric, labelled(attributes)), 0), { discard: true })
  }

  return {
    observe,
    /** A link changed state; `link` names it, e.g. scoreboard:court-1, button:remote-1, mqtt. */
    linkChanged: (link: string, up: boolean) => inRegistry(add(up ? linkConnects : linkDrops, { link })),
    delivered: (place: string, kind: string, seconds: number) =>
      inRegistry(Metric.update(Metric.withAttributes(latency, labelled({ place, kind })), Math.max(0, seconds))),
    render: (snapshot: StatusSnapshot) =>
      Effect.gen(function*() {
        const set = (metric: Metric.Metric<number, unknown>, attributes: Record<string, string>, value: number) =>
          Metric.update(Metric.withAttributes(metric, labelled(attributes)), value)
        for (const place of snapshot.places) {
          yield* bornAtZero(place.key)
          yield* statsDelta(place.key, place.decoder)
          yield* set(live, { place: place.key }, place.live ? 1 : 0)
          yield* set(eventRunning, { place: place.key }, place.event?.key != null ? 1 : 0)
          for (const kind of ["score", "click", "undo"] as const) yield* set(pending, { place: place.key, kind }, place.queue[kind])
          if (followsClips) yield* set(withoutClip, { place: place.key }, place.clipProblem?.clicks ?? 0)
        }
        yield* set(info, { version: bridgeVersion }, 1)
        yield* set(startTime, {}, snapshot.startedAt / 1000)
        if (snapshot.clockSkewMs !== null) yield* set(clockSkew, {}, snapshot.clockSkewMs / 1000)
        yield* diskDelta(snapshot.outboxDisk)
        yield* rollbackSeries(snapshot.rollback)
        for (const link of snapshot.links) yield* bornAtZero(`link:${link.name}`, [[linkConnects, { link: link.name }], [linkDrops, { link: link.name }]])
        for (const link of snapshot.links) yield* set(linkUp, { link: link.name }, link.up ? 1 : 0)
        const token = snapshot.token
        yield* set(sentLastMinute, {}, token.sentLastMinute)
        yield* set(limitPerMinute, {}, token.limitPerMinute)
        yield* set(suspended, {}, token.suspended === null ? 0 : 1)
        yield* set(backoff, {}, token.backoffUntil === null ? 0 : Math.max(0, (token.backoffUntil - snapshot.generatedAt) / 1000))
        return PrometheusMetrics.formatUnsafe(Context.make(Metric.MetricRegistry, registry))
      }).pipe(inRegistry)
  }
}

