import { Clock, Effect, Option } from "effect"
import type { ButtonEvent } from "../domain/button.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { OutboxItems, PressIdentities } from "../delivery/outbox.ts"
import type { OutboxStorageError } from "../delivery/outbox-errors.ts"
import type { PressIdentity } from "../domain/button.ts"
import { ActiveEvents, knownNoEvent, type KnownEvent } from "../events/active-events.ts"
import { autoMadeNothing, autosNear, mergeLookback } from "./press-merge.ts"
import type { Overlay } from "../service/schemas.ts"
import type { ClickBody } from "../delivery/item-payloads.ts"
import { type ClickWindow, clickBody, clickIdOf, type Team } from "./click-body.ts"
import { type BoardExtras, LatestBoard } from "./board-extras.ts"
import type { LatePress } from "../domain/press-result.ts"
import type { FinishFacts } from "../domain/race.ts"

/** What a press at a place is configured to do. */
export type PressAction =
  | { readonly do: "highlight"; readonly team: Team }
  | { readonly do: "undo" }

export interface PlaceClickSettings {
  readonly place: string
  readonly window: ClickWindow | undefined
  readonly undoWithinMs: number
  /** A press within this much of an auto-highlight replaces it: one click, the press's. */
  readonly mergeMs: number
  /**
   * The team's overlay (the place's `clicks.overlay` for team none) with live values filled in, if
   * there is one, or why it breaks the overlay rules.
   */
  readonly overlayFor: (
    team: Team,
    score: ScoreEntry | undefined,
    event: KnownEvent | undefined,
    /** What the board shows beside the score now (penalties, fouls, time-outs). */
    board: BoardExtras,
    /** A finish click's swimmer: its lane, place, time, event and heat fill the live fields. */
    finish?: FinishFacts
  ) => { readonly overlay?: Overlay; readonly problems?: ReadonlyArray<string> }
}

export type { LateClick, PressResult } from "../domain/press-result.ts"
import type { PressResult } from "../domain/press-result.ts"

const noAutos = { unsent: [], sent: [] } as const

/**
 * A press's identity as the outbox keeps it: one slot per place, as a press mapped to two places
 * makes an item at each. Neither place keys nor source names hold a space.
 */
const storedIdentity = (place: string, press: ButtonEvent): PressIdentity | undefined =>
  press.identity === undefined ? undefined : { slot: `${place} ${press.identity.slot}`, identity: press.identity.identity }

/** What every item a press makes is stored with: its time, its broker message and its identity. */
interface PressStamp {
  readonly place: string
  readonly createdAt: number
  readonly receivedAs?: string
  readonly pressIdentity?: PressIdentity
}

const stampOf = (place: string, press: ButtonEvent, receivedAs: string | undefined, identity: PressIdentity | undefined): PressStamp => ({
  place,
  createdAt: press.pressedAt,
  ...(receivedAs === undefined ? {} : { receivedAs }),
  ...(identity === undefined ? {} : { pressIdentity: identity })
})

/** Whether the press is the device's re-publish of the last one stored for its slot. Unreadable, it is taken as new: a duplicate highlight is better than a lost one. */
const isRepeat = Effect.fnUntraced(function*(place: string, identity: PressIdentity) {
  const last = yield* (yield* PressIdentities).pressIdentity(identity.slot).pipe(
    Effect.catch((e) => Effect.as(Effect.logWarning(`${place}: the last press identity of ${identity.slot} could not be read (${e.message}); the press is taken as new`), undefined))
  )
  return last === identity.identity
})

/** An undo of the place's last highlight, if there is one young enough that made something. */
const undoLast = Effect.fnUntraced(function*(settings: PlaceClickSettings, stamp: PressStamp, now: number) {
  const outbox = yield* OutboxItems
  const last = yield* outbox.lastOf(stamp.place, "click")
  if (Option.isNone(last)) return { _tag: "NothingToUndo", reason: "no highlight made at this place yet" } satisfies PressResult
  // An auto-highlight that made nothing (a press replaced it, its footage was gone) is passed over:
  // undo takes back the last highlight there is, whatever made it.
  const click = autoMadeNothing(last.value)
    ? (yield* outbox.recent(stamp.place, mergeLookback)).find((item) => item.kind === "click" && !autoMadeNothing(item)) ?? last.value
    : last.value
  const ageMs = now - click.createdAt
  if (ageMs > settings.undoWithinMs) {
    return { _tag: "NothingToUndo", reason: `the last highlight is ${Math.round(ageMs / 1000)} s old, past the undo limit` } satisfies PressResult
  }
  if (click.state === "dead" || click.state === "warning") {
    return { _tag: "NothingToUndo", reason: "the last press made no highlight" } satisfies PressResult
  }
  const undo = yield* outbox.append({ ...stamp, kind: "undo", payload: { clickItemId: click.id }, dedupeKey: `undo:${click.id}` })
  return { _tag: "UndoQueued", itemId: undo.id, clickItemId: click.id } satisfies PressResult
})

/** The press's click body: the place's last score, its team's overlay (left out, and said, if it breaks the rules). */
const bodyOf = Effect.fnUntraced(function*(
  settings: PlaceClickSettings,
  press: ButtonEvent,
  team: Team,
  known: KnownEvent | undefined,
  late: LatePress | undefined
) {
  const place = settings.place
  const lastScore = yield* (yield* OutboxItems).lastOf(place, "score")
  const score = Option.match(lastScore, { onNone: () => undefined, onSome: (item) => item.payload })
  const clickId = clickIdOf(place, press)
  const { overlay, problems } = settings.overlayFor(team, score, known, yield* (yield* LatestBoard).current(place))
  if (problems !== undefined) {
    // A highlight without its overlay beats none: the service would refuse the whole click.
    yield* Effect.logError(`${place}: ${team} overlay left out of the click: ${problems.join("; ")}`)
  }
  return { clickId, body: clickBody({ press, clickId, team, window: settings.window, score, overlay, late }) }
})

/**
 * The press's click, replacing the auto-highlights near it: those not sent yet are merged into it
 * (one commit), those already sent are undone once the click exists.
 */
const clickReplacingAutos = Effect.fnUntraced(function*(
  settings: PlaceClickSettings,
  stamp: PressStamp,
  input: { readonly body: ClickBody; readonly clickId: string; readonly eventKey: string | null }
) {
  const outbox = yield* OutboxItems
  const place = stamp.place
  // A place without rules has no auto-highlights to look for (its mergeMs is 0).
  const autos = settings.mergeMs > 0 ? autosNear(yield* outbox.recent(place, mergeLookback), stamp.createdAt, settings.mergeMs) : noAutos
  const { item, merged } = yield* outbox.appendMerging(
    { ...stamp, kind: "click", payload: input.body, eventKey: input.eventKey, dedupeKey: `click:${input.clickId}` },
    autos.unsent.map((auto) => auto.id)
  )
  // Sent before the press came (or while it was stored): its moment is taken back once it exists.
  const sent = [...autos.sent, ...autos.unsent.filter((auto) => !merged.includes(auto.id))]
  for (const auto of sent) {
    yield* outbox.append({ place, kind: "undo", payload: { clickItemId: auto.id }, dedupeKey: `undo:${auto.id}`, createdAt: stamp.createdAt })
  }
  for (const auto of [...autos.unsent.filter((a) => merged.includes(a.id)), ...sent]) {
    const rule = auto.payload.metadata.rule
    yield* Effect.logInfo(
      `${place}: press click #${item.id} replaces auto-highlight #${auto.id} (${String(rule)}), ` +
        `${merged.includes(auto.id) ? "which is not sent" : "which was already sent and is undone"}: one click, the press's`
    )
  }
  return item
})

/** A highlight press: nothing while the place is known to have no event, else its click. */
const highlight = Effect.fnUntraced(function*(settings: PlaceClickSettings, press: ButtonEvent, team: Team, stamp: PressStamp, late: LatePress | undefined) {
  const known = yield* (yield* ActiveEvents).current(settings.place)
  if (knownNoEvent(known, yield* Clock.currentTimeMillis)) return { _tag: "NoEvent" } satisfies PressResult
  const { clickId, body } = yield* bodyOf(settings, press, team, known, late)
  const item = yield* clickReplacingAutos(settings, stamp, { body, clickId, eventKey: known?.eventKey ?? null })
  const widened = late === undefined || body.startTime === undefined || body.endTime === undefined
    ? {}
    : { late: { ...late, startTime: body.startTime, endTime: body.endTime } }
  return { _tag: "Queued", itemId: item.id, clickId, ...widened } satisfies PressResult
})

/**
 * Turns a press into an outbox item: a click (stamped with the live event when
 * known) or an undo of the place's last highlight. Clicks go ahead of every
 * score backlog: the rate budget grants them the next slot.
 *
 * A press whose source gives it an identity (see ButtonEvent.identity) is stored with its item in
 * one commit; a press with the identity stored last for its slot is a repeat (a device
 * re-publishing it after the bridge restarted) and makes nothing. A press that makes no item
 * stores no identity.
 *
 * Fails with the outbox's error when the outbox cannot be read or refuses the write (disk full, the
 * file locked, a failed disk): what to do then depends on where the press came from, which the
 * caller knows (press-actions.ts: the broker's press is retried, a serial line's is reported).
 */
export const handlePress = Effect.fnUntraced(function*(
  settings: PlaceClickSettings,
  press: ButtonEvent,
  action: PressAction,
  /** The broker message the press came in (MQTT), stored with the item: see PressIdentities.storedFrom. */
  receivedAs?: string,
  /** Set when the press waited at the broker while the bridge was not listening: its window is widened. */
  late?: LatePress
): Effect.fn.Return<PressResult, OutboxStorageError, OutboxItems | PressIdentities | ActiveEvents | LatestBoard> {
  const identity = storedIdentity(settings.place, press)
  if (identity !== undefined && (yield* isRepeat(settings.place, identity))) return { _tag: "Repeat", identity: identity.identity }
  const stamp = stampOf(settings.place, press, receivedAs, identity)
  return action.do === "undo"
    ? yield* undoLast(settings, stamp, yield* Clock.currentTimeMillis)
    : yield* highlight(settings, press, action.team, stamp, late)
})
