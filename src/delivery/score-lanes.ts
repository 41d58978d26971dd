import { Clock, Effect, Option } from "effect"
import type { KindItem, OutboxItem } from "./outbox.ts"
import type { ScoreLane } from "./lanes.ts"
import type { SchedulerPorts } from "./scheduler-ports.ts"

/**
 * The order a live event's waiting entries leave in. `latest-first`: the newest first, so the
 * event's score is current in one slot after an outage, then the rest oldest first (the service
 * places an entry in the event's stream by its `timeStamp`, which every entry carries);
 * `captured`: oldest first, for a service that would take the last entry it received as the score.
 */
export type LiveScoreOrder = "latest-first" | "captured"

/** The heads of a place's score lanes as the outbox reads them (`OutboxItems.scoreHeads`). */
export interface ScoreHeads {
  readonly latest: Option.Option<KindItem<"score">>
  readonly oldestLive: Option.Option<KindItem<"score">>
  readonly oldestPast: Option.Option<KindItem<"score">>
}

/**
 * A live lane catches up newest first only once its oldest entry has waited this long (an outage, a
 * backlog: the age at which an entry is sent to its own event rather than the place, see
 * in-doubt-marks.ts); a few entries queued behind a busy slot go in capture order.
 */
export const catchUpAfterMs = 10_000

/**
 * Which entry each of a place's score lanes takes next. Live: under `latest-first` and while the
 * lane is catching up, the newest live entry whenever it is newer than every live entry already
 * started (a new change made while the rest drains goes ahead too), else the oldest; past: always
 * the oldest, so each past event's entries reach it in capture order. Remembers, per place, the
 * newest live entry started.
 */
export const makeScoreLanePicker = (order: LiveScoreOrder) => {
  const newestStarted = new Map<string, number>()
  return {
    next: (place: string, lane: ScoreLane, heads: ScoreHeads, now: number): Option.Option<KindItem<"score">> => {
      if (lane === "past") return heads.oldestPast
      const { latest, oldestLive } = heads
      const catchingUp = Option.exists(oldestLive, (oldest) => now - oldest.createdAt > catchUpAfterMs)
      if (order === "latest-first" && catchingUp && Option.exists(latest, (l) => l.id > (newestStarted.get(place) ?? 0))) return latest
      return oldestLive
    },
    /** The live lane started this entry. */
    started: (item: KindItem<"score">): void => {
      newestStarted.set(item.place, Math.max(newestStarted.get(item.place) ?? 0, item.id))
    }
  }
}

/**
 * The scheduler's view of a place's score lanes: their heads as the outbox reads them for the live
 * event the bridge knows (or, until it knows one, the newest pending entry's), the picker, and
 * whether an entry back from a back-off is still its lane's choice (the newest live entry stays;
 * one the picker would pass over makes way; an unreadable outbox changes nothing).
 */
export const makeScoreLaneChoice = (ports: Pick<SchedulerPorts, "outbox" | "liveEvent">, order: LiveScoreOrder) => {
  const picker = makeScoreLanePicker(order)
  const heads = Effect.fnUntraced(function*(place: string, lanes: ReadonlyArray<ScoreLane>) {
    const known = yield* ports.liveEvent(place)
    return yield* ports.outbox.scoreHeads(place, known === undefined ? undefined : { eventKey: known.eventKey }, lanes)
  })
  const stillChosen = (item: OutboxItem, lane: ScoreLane): Effect.Effect<boolean> =>
    item.kind !== "score" ? Effect.succeed(true) : Effect.all([heads(item.place, [lane]), Clock.currentTimeMillis]).pipe(
      Effect.map(([current, now]) =>
        Option.exists(picker.next(item.place, lane, current, now), (next) => next.id === item.id) ||
        (lane === "live" && Option.exists(current.latest, (latest) => latest.id === item.id))
      ),
      Effect.orElseSucceed(() => true)
    )
  /**
   * At a live entry's slot: the newer live entry the lane would send now instead, taken as started.
   * Only a newer one: an older choice (the rest of a backlog, oldest first) waits for a later slot.
   */
  const newerAtSlot = (item: OutboxItem, lane: ScoreLane): Effect.Effect<Option.Option<OutboxItem>> =>
    lane !== "live" || item.kind !== "score" ? Effect.succeedNone : Effect.all([heads(item.place, ["live"]), Clock.currentTimeMillis]).pipe(
      Effect.map(([current, now]) => Option.filter(picker.next(item.place, "live", current, now), (next) => next.id > item.id)),
      Effect.tap(Option.match({ onNone: () => Effect.void, onSome: (next) => Effect.sync(() => picker.started(next)) })),
      Effect.orElseSucceed(Option.none)
    )
  return { picker, heads, stillChosen, newerAtSlot }
}
