import { Clock, Context, Effect, Layer, Option, Stream } from "effect"
import type { LinkKind } from "../config/scoreboard-link.ts"
import type { FollowUp } from "../domain/follow-up.ts"
import type { LaneCount, OutboxItem, OutboxReadError } from "../delivery/outbox.ts"
import { Outbox } from "../delivery/outbox.ts"
import { RateBudget } from "../delivery/rate-budget.ts"
import type { LinkState } from "../domain/received.ts"
import { ActiveEvents, type KnownEvent } from "../events/active-events.ts"
import { ServiceClient } from "../service/client.ts"
import { buildTimeline } from "../timeline/build-timeline.ts"
import type { Timeline } from "../timeline/timeline-model.ts"
import { timelineVersion } from "../timeline/timeline-version.ts"
import { UnknownPlace } from "../timeline/unknown-place.ts"
import { MqttConnection } from "../transport/mqtt.ts"
import { BridgeEvents, type BridgeEvent } from "../bus/bridge-events.ts"
import { clipProblemOf, clipRun, clipsFirstRead, clipsLongRead, lastClickOf } from "./clip-status.ts"
import { buttonView, defaultThresholds, scoreboardView, type SourceView, type Thresholds } from "./liveness.ts"
import { type LinkRecord, nextLink, PlaceTracker } from "./place-tracker.ts"
import { readingText } from "./reading-text.ts"
import { makeRollbackNotice } from "./rollback-notice.ts"
import { makeStatusMetrics } from "./status-metrics.ts"
import type { LinkStatus, PlaceStatus, StatusSnapshot } from "./status-snapshot.ts"

/** What the status model needs to know of the config. */
export interface StatusPlace {
  readonly key: string
  readonly name?: string
  readonly sport?: string
  readonly scoreboard?: { readonly link: LinkKind; readonly target: string }
  /** Button sources its actions use. */
  readonly buttonSources: ReadonlyArray<string>
}

export interface StatusOptions {
  readonly places: ReadonlyArray<StatusPlace>
  readonly buttons: ReadonlyArray<{ readonly name: string; readonly overMqtt: boolean }>
  /** A broker is configured: its link is shown and feeds MQTT scoreboards and buttons. */
  readonly mqtt: boolean
  readonly thresholds?: Thresholds
  /** Clicks followed until their clips exist (`clips:`); absent or `followUp: false`: nothing about clips is shown. */
  readonly clips?: { readonly followUp: boolean; readonly problemAfterClicks: number }
  /** The fleet's name for this site: a `venue` label on every metric series. */
  readonly venue?: string | undefined
  /** The upgrade guard's record of an automatic rollback (src/upgrade/rollback-record.ts); absent: none is looked for. */
  readonly rollbackFile?: string | undefined
}

/**
 * Follows the bridge's events and reads the delivery snapshots to answer, at
 * any moment, whether each place is live and why not: the status page,
 * `/status.json`, `/healthz` and `/metrics` all read it.
 */
export class BridgeStatus extends Context.Service<BridgeStatus, {
  readonly snapshot: Effect.Effect<StatusSnapshot>
  /** Prometheus text exposition. */
  readonly metrics: Effect.Effect<string>
  /** The place's current event, from its recent outbox items (see src/timeline/). */
  timeline(placeKey: string): Effect.Effect<Timeline, UnknownPlace | OutboxReadError>
}>()("scorebridge/status/BridgeStatus") {
  static readonly layer = (options: StatusOptions) => Layer.effect(BridgeStatus, make(options))
}

const make = Effect.fnUntraced(function*(options: StatusOptions) {
  const bus = yield* BridgeEvents
  const outbox = yield* Outbox
  const budget = yield* RateBudget
  const events = yield* ActiveEvents
  const client = yield* ServiceClient
  const mqtt = yield* MqttConnection
  const thresholds = options.thresholds ?? defaultThresholds
  const startedAt = yield* Clock.currentTimeMillis
  const metrics = makeStatusMetrics({ followsClips: options.clips?.followUp === true, venue: options.venue })
  const trackers = new Map(options.places.map((p) => [p.key, new PlaceTracker(p.key)]))
  const buttonLinks = new Map<string, LinkRecord>()
  let mqttLink: LinkRecord | undefined

  // After a restart the page shows the last entry from the outbox, not "none yet".
  for (const tracker of trackers.values()) {
    const last = yield* outbox.lastOf(tracker.key, "score").pipe(Effect.orElseSucceed(() => Option.none<OutboxItem>()))
    if (Option.isSome(last)) tracker.restore(last.value)
  }

  const rollback = options.rollbackFile === undefined ? Effect.succeed(null) : makeRollbackNotice(options.rollbackFile)
  // Said once at start-up, for the journal; the page and /metrics show it for as long as the record is there.
  const rolledBack = yield* rollback
  if (rolledBack !== null) yield* Effect.logWarning(rolledBack.text)

  // Subscribed before this layer returns, so the pipelines started after it lose nothing.
  const stream = yield* bus.subscribe

  const followLink = (name: string, before: LinkRecord | undefined, state: LinkState, at: number) => {
    const after = nextLink(before, state, at)
    const wasUp = before?.state._tag === "connected"
    const isUp = state._tag === "connected"
    return { after, count: wasUp === isUp ? Effect.void : metrics.linkChanged(name, isUp) }
  }

  const latencyOf = Effect.fnUntraced(function*(event: Extract<BridgeEvent, { _tag: "Settled" }>, at: number) {
    if (event.outcome._tag !== "Delivered") return
    const item = yield* outbox.get(event.itemId).pipe(Effect.orElseSucceed(() => Option.none<OutboxItem>()))
    if (Option.isSome(item)) yield* metrics.delivered(event.place, event.kind, (at - item.value.createdAt) / 1000)
  })

  const apply = Effect.fnUntraced(function*(event: BridgeEvent) {
    const at = yield* Clock.currentTimeMillis
    yield* metrics.observe(event)
    if (event._tag === "ButtonLink") {
      const { after, count } = followLink(`button:${event.source}`, buttonLinks.get(event.source), event.state, at)
      buttonLinks.set(event.source, after)
      return yield* count
    }
    const tracker = trackers.get(event.place)
    if (tracker === undefined) return
    if (event._tag === "Link") yield* followLink(`scoreboard:${event.place}`, tracker.link, event.state, at).count
    tracker.apply(event, at)
    if (event._tag === "Settled") yield* latencyOf(event, at)
  })

  yield* Effect.forkScoped(Stream.runForEach(stream, apply))
  if (options.mqtt) {
    yield* Effect.forkScoped(Stream.runForEach(mqtt.stateChanges, (state) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        const { after, count } = followLink("mqtt", mqttLink, state, at)
        mqttLink = after
        return count
      })))
  }

  const mqttButtons = new Set(options.buttons.filter((b) => b.overMqtt).map((b) => b.name))
  const buttonRecord = (name: string) => (mqttButtons.has(name) ? mqttLink : buttonLinks.get(name))

  const placeStatus = (
    place: StatusPlace,
    now: number,
    counts: ReadonlyArray<LaneCount>,
    heads: ReadonlyArray<OutboxItem>,
    known: KnownEvent | undefined,
    suspended: string | null,
    followUps: ReadonlyArray<FollowUp> | undefined
  ): PlaceStatus => {
    const tracker = trackers.get(place.key)!
    const board = place.scoreboard
    const buttons = place.buttonSources.map((source) => ({ source, ...buttonView(source, buttonRecord(source), now) }))
    const source: SourceView = board === undefined
      ? buttons.find((b) => b.badge !== "LIVE") ?? { badge: "LIVE", detail: "buttons only, all connected" }
      : scoreboardView({
        link: board.link,
        target: board.target,
        record: board.link === "mqtt" ? mqttLink : tracker.link,
        lastBytesAt: tracker.lastBytesAt,
        lastReadingAt: tracker.lastReading?.receivedAt ?? null,
        stats: tracker.stats
      }, thresholds, now)
    const pendingOf = (kind: string) =>
      counts.filter((c) => c.place === place.key && c.kind === kind && c.state === "pending").reduce((n, c) => n + c.count, 0)
    const oldest = heads.filter((h) => h.place === place.key).sort((a, b) => a.createdAt - b.createdAt)[0]
    const reasons: Array<string> = []
    if (source.badge !== "LIVE") reasons.push(`${place.key}: ${source.badge}: ${board === undefined ? "" : `${board.target}: `}${source.detail}`)
    if (board !== undefined) for (const b of buttons) if (b.badge !== "LIVE") reasons.push(`${place.key}: ${b.detail}`)
    if (suspended !== null) reasons.push(`${place.key}: delivery paused: ${suspended}`)
    if (oldest !== undefined && now - oldest.createdAt > thresholds.stuckAfterMs) {
      const waited = Math.round((now - oldest.createdAt) / 1000)
      reasons.push(`${place.key}: delivery stuck: ${oldest.kind} #${oldest.id} pending for ${waited} s${oldest.lastError === null ? "" : ` (last error: ${oldest.lastError})`}`)
    }
    // A camera is not a scoreboard: the badge stays, the court is named in the health reasons.
    const clipProblem = followUps === undefined ? null : clipProblemOf(followUps, options.clips!.problemAfterClicks)
    if (clipProblem !== null) reasons.push(`${place.key}: ${clipProblem.text}`)
    return {
      key: place.key,
      name: place.name ?? null,
      sport: place.sport ?? null,
      live: reasons.length === 0,
      reasons,
      source: { link: board?.link ?? "buttons only", target: board?.target ?? place.buttonSources.join(", "), ...source },
      lastBytesAt: tracker.lastBytesAt,
      lastReadingAt: tracker.lastReading?.receivedAt ?? null,
      lastReading: tracker.lastReading,
      lastReadingText: tracker.lastReading === null ? null : readingText(tracker.lastReading),
      decoder: tracker.stats,
      lastEntry: tracker.lastEntry,
      lastPress: tracker.lastPress,
      lastClick: followUps === undefined ? null : lastClickOf(followUps),
      clipProblem,
      queue: {
        score: pendingOf("score"),
        click: pendingOf("click"),
        undo: pendingOf("undo"),
        oldestPendingAt: oldest?.createdAt ?? null,
        oldestPendingError: oldest?.lastError ?? null
      },
      event: known === undefined
        ? null
        : { key: known.eventKey, homeTeam: known.homeTeam ?? null, awayTeam: known.awayTeam ?? null, learnedAt: known.learnedAt },
      buttons,
      errors: [...tracker.errors].reverse()
    }
  }

  const linkStatus = (name: string, record: LinkRecord | undefined, target: string): LinkStatus => ({
    name,
    up: record?.state._tag === "connected",
    state: record?.state._tag ?? "not started",
    target: record?.state.target ?? target,
    detail: record?.lastFailure?.text ?? null,
    since: record?.since ?? startedAt,
    connects: record?.connects ?? 0
  })

  /** Enough of the place's newest follow-ups to see its last clip: a few, or, while none had a clip, a bounded many. */
  const recentFollowUps = Effect.fnUntraced(function*(placeKey: string) {
    const first = yield* outbox.followUpsOf(placeKey, clipsFirstRead)
    return first.length < clipsFirstRead || clipRun(first).ended ? first : yield* outbox.followUpsOf(placeKey, clipsLongRead)
  })

  const snapshot = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const outboxProblem: Array<string> = []
    const unreadable = (e: { readonly message: string }) => {
      outboxProblem.push(`outbox unreadable: ${e.message}`)
      return Effect.succeed([])
    }
    const counts = yield* outbox.counts.pipe(Effect.catch(unreadable))
    const heads = yield* outbox.heads.pipe(Effect.catch(unreadable))
    const settled = yield* outbox.settledFollowUps.pipe(Effect.catch(unreadable))
    const budgetNow = yield* budget.snapshot
    const known = yield* events.all
    const clock = yield* client.lastServerDate
    const outboxDisk = yield* outbox.diskStats
    const followUps = new Map<string, ReadonlyArray<FollowUp>>()
    if (options.clips?.followUp === true) {
      for (const p of options.places) followUps.set(p.key, yield* recentFollowUps(p.key).pipe(Effect.catch(unreadable)))
    }
    const places = options.places.map((p) => placeStatus(p, now, counts, heads, known.get(p.key), budgetNow.suspended, followUps.get(p.key)))
    const links = [
      ...options.places.flatMap((p) =>
        p.scoreboard !== undefined && p.scoreboard.link !== "mqtt" ? [linkStatus(`scoreboard:${p.key}`, trackers.get(p.key)!.link, p.scoreboard.target)] : []
      ),
      ...options.buttons.filter((b) => !b.overMqtt).map((b) => linkStatus(`button:${b.name}`, buttonLinks.get(b.name), b.name)),
      ...(options.mqtt ? [linkStatus("mqtt", mqttLink, "broker")] : [])
    ]
    const reasons = [...outboxProblem, ...places.flatMap((p) => p.reasons)]
    return {
      generatedAt: now,
      startedAt,
      healthy: reasons.length === 0,
      reasons,
      places,
      token: {
        sentLastMinute: budgetNow.sentLastMinute,
        limitPerMinute: Math.round(budgetNow.requestsPerSecond * 60),
        waiting: budgetNow.waiting,
        backoffUntil: budgetNow.backoffUntil,
        suspended: budgetNow.suspended
      },
      links,
      clockSkewMs: Option.match(clock, {
        onNone: () => null,
        // The Date header has whole seconds and was stamped mid-flight.
        onSome: (c) => c.serverDate + 500 - (c.localDate - c.latencyMs / 2)
      }),
      outboxDisk,
      thresholds,
      timelines: Object.fromEntries(options.places.map((p) => [
        p.key,
        timelineVersion(counts.filter((c) => c.place === p.key), known.get(p.key), settled.find((s) => s.place === p.key))
      ])),
      rollback: yield* rollback
    } satisfies StatusSnapshot
  })

  // A long match is a few hundred entries and clicks; this keeps a day's worth of one place.
  const timelineItems = 2000

  const timeline = Effect.fnUntraced(function*(placeKey: string) {
    const place = options.places.find((p) => p.key === placeKey)
    if (place === undefined) return yield* new UnknownPlace({ place: placeKey, known: options.places.map((p) => p.key) })
    const recent = yield* outbox.recent(place.key, timelineItems)
    // At most one per click, so as many as the items cover every click among them.
    const followUps = yield* outbox.followUpsOf(place.key, timelineItems)
    const known = (yield* events.all).get(place.key)
    return buildTimeline({
      place: { key: place.key, name: place.name ?? null },
      sport: place.sport ?? null,
      event: known === undefined ? null : { key: known.eventKey, homeTeam: known.homeTeam ?? null, awayTeam: known.awayTeam ?? null },
      recent,
      followUps
    })
  })

  return BridgeStatus.of({
    snapshot,
    metrics: Effect.flatMap(snapshot, metrics.render),
    timeline
  })
})
