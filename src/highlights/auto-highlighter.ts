import { Clock, Effect } from "effect"
import { LatestBoard } from "../clicks/board-extras.ts"
import type { PlaceClickSettings } from "../clicks/press-handler.ts"
import { footageKeptMs } from "../delivery/footage.ts"
import { type AppendInput, OutboxItems } from "../delivery/outbox.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { finishFacts } from "../domain/race.ts"
import { ActiveEvents, knownNoEvent } from "../events/active-events.ts"
import { autoClickBody, autoClickIdOf } from "./auto-click.ts"
import type { AutoRule } from "../domain/auto-rule.ts"
import { mergeLookback, pressNear } from "../clicks/press-merge.ts"
import type { AutoHighlight } from "./score-moments.ts"

/** What a place's auto-highlights need from its config. */
export interface AutoHighlightSettings {
  readonly rules: ReadonlyArray<AutoRule>
  /** A press within this much of an auto-highlight makes the one click (the press's). */
  readonly mergeMs: number
  readonly overlayFor: PlaceClickSettings["overlayFor"]
}

const clockTime = (ms: number) => new Date(ms).toISOString().slice(11, 23)

/** What a highlight is called in the log: its rule, whom it is about (the lane and place of a finish), its time. */
const describe = (highlight: AutoHighlight): string => {
  const about = highlight.finish === undefined ? highlight.team : `lane ${highlight.finish.lane}, place ${highlight.finish.place}`
  return `${highlight.rule} auto-highlight (${about}) at ${clockTime(highlight.at)}`
}

/**
 * The outbox items a place's selected highlights become: clicks like a press's, held `mergeMs`
 * for a press to replace them. None when a press already covers the moment, when the place is
 * known to have no event, or when the footage is already gone (a change judged long after it
 * was shown): each is logged, none is sent late. A finish is its own swimmer's clip: never held,
 * never merged into a press (press-merge.ts), with the place's overlay for clicks about no team.
 */
export const autoHighlightItems = Effect.fnUntraced(function*(
  place: string,
  settings: AutoHighlightSettings,
  highlights: ReadonlyArray<AutoHighlight>,
  score: ScoreEntry | undefined
) {
  if (highlights.length === 0) return []
  const outbox = yield* OutboxItems
  const events = yield* ActiveEvents
  const now = yield* Clock.currentTimeMillis
  const known = yield* events.current(place)
  const board = yield* (yield* LatestBoard).current(place)
  const recent = yield* outbox.recent(place, mergeLookback)
  const items: Array<AppendInput> = []
  for (const highlight of highlights) {
    const what = describe(highlight)
    if (now - (highlight.at - highlight.window.beforeSeconds * 1000) > footageKeptMs) {
      yield* Effect.logWarning(`${place}: ${what} skipped, not sent: its footage is older than the minute the service keeps`)
      continue
    }
    if (knownNoEvent(known, now)) {
      yield* Effect.logInfo(`${place}: ${what} not made: no event running`)
      continue
    }
    const holdMs = highlight.finish === undefined ? settings.mergeMs : 0
    const press = pressNear(recent, highlight.at, holdMs)
    if (press !== undefined) {
      yield* Effect.logInfo(`${place}: ${what} merged into press click #${press.id}, pressed within ${settings.mergeMs / 1000} s: one click, the press's`)
      continue
    }
    const clickId = autoClickIdOf(place, highlight, score)
    const finish = highlight.finish === undefined ? undefined : finishFacts(highlight.finish)
    const { overlay, problems } = settings.overlayFor(highlight.team, score, known, board, finish)
    if (problems !== undefined) {
      yield* Effect.logError(`${place}: ${highlight.team === "none" ? "clicks" : highlight.team} overlay left out of the ${what}: ${problems.join("; ")}`)
    }
    items.push({
      place,
      kind: "click",
      payload: autoClickBody({ highlight, clickId, score, overlay }),
      eventKey: known?.eventKey ?? null,
      dedupeKey: `click:${clickId}`,
      createdAt: highlight.at,
      notBefore: highlight.at + holdMs
    })
  }
  return items
})
