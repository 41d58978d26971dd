import { Effect } from "effect"
import { ClipFollowUps, OutboxItems } from "../delivery/outbox.ts"
import { ActiveEvents } from "../events/active-events.ts"
import { buildTimeline } from "../timeline/build-timeline.ts"
import { UnknownPlace } from "../timeline/unknown-place.ts"
import type { StatusPlace } from "./status-options.ts"

// A long match is a few hundred entries and clicks; this keeps a day's worth of one place.
const timelineItems = 2000

/** The place's current event, from its recent outbox items (see src/timeline/). */
export const placeTimeline = Effect.fnUntraced(function*(places: ReadonlyArray<StatusPlace>, placeKey: string) {
  const place = places.find((p) => p.key === placeKey)
  if (place === undefined) return yield* new UnknownPlace({ place: placeKey, known: places.map((p) => p.key) })
  const recent = yield* (yield* OutboxItems).recent(place.key, timelineItems)
  // At most one per click, so as many as the items cover every click among them.
  const followUps = yield* (yield* ClipFollowUps).followUpsOf(place.key, timelineItems)
  const known = (yield* (yield* ActiveEvents).all).get(place.key)
  return buildTimeline({
    place: { key: place.key, name: place.name ?? null },
    sport: place.sport ?? null,
    event: known === undefined ? null : { key: known.eventKey, homeTeam: known.homeTeam ?? null, awayTeam: known.awayTeam ?? null },
    recent,
    followUps
  })
})
