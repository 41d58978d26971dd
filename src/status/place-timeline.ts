import { Effect } from "effect"
import { ClipFollowUps, OutboxItems } from "../delivery/outbox.ts"
import { ActiveEvents } from "../events/active-events.ts"
import { buildTimeline } from "../timeline/build-timeline.ts"
import { withinCurrentEvent } from "../timeline/current-event.ts"
import { UnknownPlace } from "../timeline/unknown-place.ts"
import type { StatusPlace } from "./status-options.ts"

// A long match is a few hundred entries and clicks (tennis ~300 points, basketball ~200 scores):
// the newest 500 draw it whole. Each row read is decoded (under --jitless ~0.15 ms), so the cap is
// what one drawing can cost the event loop: ~75 ms, against ~300 ms at the 2,000 it was (a day's
// event, or the newest past event of a backlog before any live entry).
const timelineItems = 500

/**
 * The place's current event, from its newest outbox items (see src/timeline/): read newest first
 * and only until an item of an older event, so a backlog of past events waiting behind the live one
 * costs nothing here.
 */
export const placeTimeline = Effect.fnUntraced(function*(places: ReadonlyArray<StatusPlace>, placeKey: string) {
  const place = places.find((p) => p.key === placeKey)
  if (place === undefined) return yield* new UnknownPlace({ place: placeKey, known: places.map((p) => p.key) })
  const known = (yield* (yield* ActiveEvents).all).get(place.key)
  const recent = yield* (yield* OutboxItems).recentWhile(place.key, timelineItems, withinCurrentEvent(known?.eventKey ?? undefined))
  // Newest first, at most one per click: as many as the clicks read cover each of theirs.
  const clicks = recent.filter((item) => item.kind === "click").length
  const followUps = clicks === 0 ? [] : yield* (yield* ClipFollowUps).followUpsOf(place.key, clicks)
  return buildTimeline({
    place: { key: place.key, name: place.name ?? null },
    sport: place.sport ?? null,
    event: known === undefined ? null : { key: known.eventKey, homeTeam: known.homeTeam ?? null, awayTeam: known.awayTeam ?? null },
    recent,
    followUps
  })
})
