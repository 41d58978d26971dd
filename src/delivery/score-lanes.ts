import { Effect, Option } from "effect"
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
 * Which entry each of a place's score lanes takes next. Live: under `latest-first`, the newest
 * live entry whenever it is newer than every live entry already started (a new change made while
 * the rest drains goes ahead too), else the oldest; past: always the oldest, so each past event's
 * entries reach it in capture order. Remembers, per place, the newest live entry started.
 */
export const makeScoreLanePicker = (order: LiveScoreOrder) => {
  const newestStarted = new Map<string, number>()
  return {
    next: (place: string, lane: ScoreLane, heads: ScoreHeads): Option.Option<KindItem<"score">> => {
      if (lane === "past") return heads.oldestPast
      const latest = heads.latest
      if (order === "latest-first" && Option.isSome(latest) && latest.value.id > (newestStarted.get(place) ?? 0)) return latest
      return heads.oldestLive
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
  const heads = Effect.fnUntraced(function*(place: string) {
    const known = yield* ports.liveEvent(place)
    return yield* ports.outbox.scoreHeads(place, known === undefined ? undefined : { eventKey: known.eventKey })
  })
  const stillChosen = (item: OutboxItem, lane: ScoreLane): Effect.Effect<boolean> =>
    item.kind !== "score" ? Effect.succeed(true) : heads(item.place).pipe(
      Effect.map((now) =>
        Option.exists(picker.next(item.place, lane, now), (next) => next.id === item.id) ||
        (lane === "live" && Option.exists(now.latest, (latest) => latest.id === item.id))
      ),
      Effect.orElseSucceed(() => true)
    )
  return { picker, heads, stillChosen }
}
