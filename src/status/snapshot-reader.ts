import { Clock, Effect, Option } from "effect"
import type { FollowUp } from "../domain/follow-up.ts"
import { ClipFollowUps, type OutboxItem, OutboxHealth, OutboxItems } from "../delivery/outbox.ts"
import { type BudgetSnapshot, RateBudget } from "../delivery/rate-budget.ts"
import { ActiveEvents, type KnownEvent } from "../events/active-events.ts"
import { ServiceClient, type ServerClock } from "../service/client.ts"
import { timelineVersion } from "../timeline/timeline-version.ts"
import { clickOf, clipRun, clipsFirstRead, clipsLongRead } from "./clip-status.ts"
import { answerOfItem } from "./item-answer.ts"
import type { LinkRecords } from "./link-records.ts"
import type { Thresholds } from "./liveness.ts"
import type { LinkRecord, PlaceTracker } from "./place-tracker.ts"
import { placeStatus } from "./place-status.ts"
import { pastBacklogs, pastEntriesOf, type PendingByEvent } from "./past-backlog.ts"
import { type FinishClick, lastFinishes } from "./race-status.ts"
import type { RollbackNotice } from "./rollback-notice.ts"
import type { StatusOptions } from "./status-options.ts"
import type { LinkStatus, StatusSnapshot, TokenStatus } from "./status-snapshot.ts"
import { venueClockAt } from "./venue-clock.ts"

/** What a snapshot is made of besides what it reads from the outbox, the budget and the service. */
export interface SnapshotSources {
  readonly options: StatusOptions
  readonly trackers: ReadonlyMap<string, PlaceTracker>
  readonly links: LinkRecords
  readonly thresholds: Thresholds
  readonly startedAt: number
  readonly rollback: Effect.Effect<RollbackNotice | null>
}

/** Enough of the place's newest follow-ups to see its last clip: a few, or, while none had a clip, a bounded many. */
const recentFollowUps = Effect.fnUntraced(function*(placeKey: string) {
  const followUps = yield* ClipFollowUps
  const first = yield* followUps.followUpsOf(placeKey, clipsFirstRead)
  return first.length < clipsFirstRead || clipRun(first).ended ? first : yield* followUps.followUpsOf(placeKey, clipsLongRead)
})

/**
 * The oldest pending click and undo of each place: the lanes come without their items, and only
 * these are read (a score lane's head is its oldest live entry, scoreLanesOf). Each read decodes a
 * row on the event loop, where frames and presses are stamped; one place's reads per turn.
 */
const pressHeads = Effect.gen(function*() {
  const items = yield* OutboxItems
  const heads: Array<OutboxItem> = []
  for (const { place, kind } of yield* items.lanes) {
    if (kind === "score") continue
    heads.push(...yield* items.pending(place, kind, 1))
    yield* Effect.yieldNow
  }
  return heads
})

/** The outbox's views a snapshot shows; one that cannot be read is a health reason, not a failure. */
const readOutbox = Effect.fnUntraced(function*(options: StatusOptions) {
  const items = yield* OutboxItems
  const health = yield* OutboxHealth
  const problems: Array<string> = []
  const unreadable = (e: { readonly message: string }) => {
    problems.push(`outbox unreadable: ${e.message}`)
    return Effect.succeed([])
  }
  const counts = yield* health.counts.pipe(Effect.catch(unreadable))
  // Found by the check of the whole file after the start (outbox-integrity.ts); until then, or when it could not run, nothing is known.
  const integrity = yield* health.integrity
  if (integrity.state === "corrupt") problems.push(`outbox file corrupt: ${integrity.problems}; move it aside to start with an empty outbox`)
  const pendingByEvent = yield* health.pendingScoresByEvent.pipe(Effect.catch(unreadable))
  const heads = yield* pressHeads.pipe(Effect.catch(unreadable))
  const settled = yield* (yield* ClipFollowUps).settledFollowUps.pipe(Effect.catch(unreadable))
  const followUps = new Map<string, ReadonlyArray<FollowUp>>()
  if (options.clips?.followUp === true) {
    for (const p of options.places) followUps.set(p.key, yield* recentFollowUps(p.key).pipe(Effect.catch(unreadable)))
  }
  return { problems, counts, pendingByEvent, heads, settled, followUps, disk: yield* health.diskStats }
})

/**
 * Each place's score lanes as the scheduler takes them (OutboxItems.scoreHeads: a few seeks): its
 * past events' entries, when they will be through, and its oldest live entry (a backlog of past
 * events drains behind the live ones: it is not "delivery stuck").
 */
const scoreLanesOf = Effect.fnUntraced(function*(
  options: StatusOptions,
  pending: ReadonlyArray<PendingByEvent>,
  known: ReadonlyMap<string, KnownEvent>,
  perMinute: number,
  now: number
) {
  const items = yield* OutboxItems
  const pastByPlace = new Map<string, ReadonlyArray<PendingByEvent>>()
  const oldestLive = new Map<string, OutboxItem>()
  for (const p of options.places) {
    const ofPlace = pending.filter((row) => row.place === p.key)
    if (ofPlace.length === 0) {
      pastByPlace.set(p.key, [])
      continue
    }
    const event = known.get(p.key)
    // The live lane's only: the past events' counts come from `pending`. A place's reads per turn of the event loop.
    yield* Effect.yieldNow
    const heads = yield* items.scoreHeads(p.key, event === undefined ? undefined : { eventKey: event.eventKey }, ["live"]).pipe(Effect.option)
    const liveEventKey = heads._tag === "Some" ? heads.value.liveEventKey : event?.eventKey ?? null
    if (heads._tag === "Some" && heads.value.oldestLive._tag === "Some") oldestLive.set(p.key, heads.value.oldestLive.value)
    pastByPlace.set(p.key, pastEntriesOf(ofPlace, p.key, liveEventKey))
  }
  return { past: pastBacklogs(pastByPlace, perMinute, now), oldestLive }
})

/**
 * The clicks of the finishes a card shows, as the outbox keeps them (so a click settled before its
 * finish reached the bus is not shown queued): the service's answer, and the clip when followed.
 * A read that fails leaves the finish without it; readOutbox already names an unreadable outbox.
 */
const finishClicks = Effect.fnUntraced(function*(tracker: PlaceTracker, followed: ReadonlyArray<FollowUp> | undefined) {
  const items = yield* OutboxItems
  const clips = yield* ClipFollowUps
  const found = new Map<number, FinishClick>()
  for (const { clickItemId } of lastFinishes(tracker.finishes.all)) {
    if (clickItemId === null) continue
    const item = yield* items.get(clickItemId).pipe(Effect.orElseSucceed(() => Option.none<OutboxItem>()))
    const followUp = followed === undefined
      ? undefined
      : followed.find((f) => f.clickId === clickItemId) ?? (yield* clips.followUpOf(clickItemId).pipe(Effect.orElseSucceed(() => undefined)))
    found.set(clickItemId, {
      answer: Option.isSome(item) ? answerOfItem(item.value) : null,
      clip: followUp === undefined ? null : clickOf(followUp)
    })
  }
  return found
})

const linkStatus = (name: string, record: LinkRecord | undefined, target: string, startedAt: number): LinkStatus => ({
  name,
  up: record?.state._tag === "connected",
  state: record?.state._tag ?? "not started",
  target: record?.state.target ?? target,
  detail: record?.lastFailure?.text ?? null,
  since: record?.since ?? startedAt,
  connects: record?.connects ?? 0
})

/** Every link the page lists: scoreboards not over MQTT, button sources not over MQTT, and the broker. */
const linksOf = ({ options, trackers, links, startedAt }: SnapshotSources): ReadonlyArray<LinkStatus> => [
  ...options.places.flatMap((p) =>
    p.scoreboard !== undefined && p.scoreboard.link !== "mqtt"
      ? [linkStatus(`scoreboard:${p.key}`, trackers.get(p.key)!.link, p.scoreboard.target, startedAt)]
      : []
  ),
  ...options.buttons.filter((b) => !b.overMqtt).map((b) => linkStatus(`button:${b.name}`, links.buttons.get(b.name), b.name, startedAt)),
  ...(options.mqtt ? [linkStatus("mqtt", links.mqtt, "broker", startedAt)] : [])
]

const tokenOf = (budget: BudgetSnapshot): TokenStatus => ({
  sentLastMinute: budget.sentLastMinute,
  limitPerMinute: Math.round(budget.requestsPerSecond * 60),
  waiting: budget.waiting,
  backoffUntil: budget.backoffUntil,
  suspended: budget.suspended
})

// The Date header has whole seconds and was stamped mid-flight.
const clockSkewOf = (clock: Option.Option<ServerClock>) =>
  Option.match(clock, { onNone: () => null, onSome: (c) => c.serverDate + 500 - (c.localDate - c.latencyMs / 2) })

/** The whole bridge at this moment: what /status.json serves, the page draws and /metrics counts from. */
export const readSnapshot = Effect.fnUntraced(function*(sources: SnapshotSources) {
  const { options } = sources
  const now = yield* Clock.currentTimeMillis
  const outbox = yield* readOutbox(options)
  const budget = yield* (yield* RateBudget).snapshot
  const known = yield* (yield* ActiveEvents).all
  const clock = yield* (yield* ServiceClient).lastServerDate
  const finishes = new Map<string, ReadonlyMap<number, FinishClick>>()
  for (const p of options.places) finishes.set(p.key, yield* finishClicks(sources.trackers.get(p.key)!, outbox.followUps.get(p.key)))
  const lanes = yield* scoreLanesOf(options, outbox.pendingByEvent, known, budget.backlogLastMinute, now)
  const places = options.places.map((place) =>
    placeStatus({
      place,
      tracker: sources.trackers.get(place.key)!,
      links: sources.links,
      thresholds: sources.thresholds,
      now,
      counts: outbox.counts,
      // The oldest of each lane but the scores', whose oldest live entry stands for them.
      heads: [...outbox.heads.filter((h) => h.place === place.key), ...(lanes.oldestLive.has(place.key) ? [lanes.oldestLive.get(place.key)!] : [])],
      known: known.get(place.key),
      suspended: budget.suspended,
      followUps: outbox.followUps.get(place.key),
      problemAfterClicks: options.clips?.problemAfterClicks ?? 0,
      finishClicks: finishes.get(place.key)!,
      pastBacklog: lanes.past.get(place.key)!
    })
  )
  const reasons = [...outbox.problems, ...places.flatMap((p) => p.reasons)]
  return {
    generatedAt: now,
    startedAt: sources.startedAt,
    venueClock: venueClockAt(now),
    healthy: reasons.length === 0,
    reasons,
    places,
    token: tokenOf(budget),
    links: linksOf(sources),
    clockSkewMs: clockSkewOf(clock),
    outboxDisk: outbox.disk,
    thresholds: sources.thresholds,
    timelines: Object.fromEntries(options.places.map((p) => [
      p.key,
      timelineVersion(outbox.counts.filter((c) => c.place === p.key), known.get(p.key), outbox.settled.find((s) => s.place === p.key))
    ])),
    rollback: yield* sources.rollback
  } satisfies StatusSnapshot
})
