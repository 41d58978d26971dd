import type { DecoderStats } from "../../adapters/decoder.ts"
import { emptyStats } from "../../adapters/decoder.ts"
import { pressFeedback } from "../clicks/press-feedback.ts"
import type { LateClick } from "../clicks/press-handler.ts"
import type { ItemKind, KindItem } from "../delivery/outbox.ts"
import type { Outcome } from "../domain/outcome.ts"
import type { Reading } from "../domain/reading.ts"
import type { LinkState } from "../domain/received.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { BridgeEvent } from "../bus/bridge-events.ts"
import { FinishLog } from "./finish-log.ts"
import { type Answer, answerOfItem, answerOfOutcome } from "./item-answer.ts"

export interface Noted {
  readonly at: number
  readonly text: string
}

/** An error line; the same problem again bumps `times` instead of filling the ring. */
export interface ErrorNote extends Noted {
  readonly key: string
  readonly times: number
}

export interface LastEntry {
  readonly itemId: number
  readonly entry: ScoreEntry
  readonly answer: Answer
}

export interface LastPress {
  readonly at: number
  readonly source: string
  readonly button: string
  readonly gesture: string
  /** What the operator was told, e.g. "… → highlight #12 on its way". */
  readonly text: string
  readonly itemId: number | null
  readonly answer: Answer | null
  /** Set when the press waited at the broker while the bridge was not listening, and its window was widened. */
  readonly late: LateClick | null
}

/** A link as last reported, with when it last came up or went down. */
export interface LinkRecord {
  readonly state: LinkState
  readonly since: number
  /** The last reason it went down, kept while it is reconnecting. */
  readonly lastFailure: Noted | null
  readonly connects: number
}

const errorsKept = 20


export const nextLink = (before: LinkRecord | undefined, state: LinkState, at: number): LinkRecord => {
  const changed = before === undefined || before.state._tag !== state._tag
  // A port that fails to open cycles connecting → disconnected: it has been down since the first failure.
  const upChanged = before === undefined || (before.state._tag === "connected") !== (state._tag === "connected")
  return {
    state,
    since: upChanged ? at : before.since,
    lastFailure: state._tag === "disconnected" ? { at, text: state.reason } : state._tag === "connected" ? null : before?.lastFailure ?? null,
    connects: (before?.connects ?? 0) + (changed && state._tag === "connected" ? 1 : 0)
  }
}

/**
 * What one place has shown lately, folded from bridge events: its scoreboard
 * link, bytes and readings, last entry and press with the service's answers,
 * its last finishes, and a short ring of errors. No I/O; the status model owns the clock.
 */
export class PlaceTracker {
  readonly key: string
  link: LinkRecord | undefined
  bytes = 0
  lastBytesAt: number | null = null
  stats: DecoderStats = emptyStats()
  lastReading: Reading | null = null
  lastEntry: LastEntry | null = null
  lastPress: LastPress | null = null
  /** The race's finishes as the bus reported them (swimming). */
  readonly finishes = new FinishLog()
  readonly errors: Array<ErrorNote> = []

  constructor(key: string) {
    this.key = key
  }

  note(at: number, text: string, key = text) {
    const last = this.errors.at(-1)
    if (last?.key === key) {
      this.errors[this.errors.length - 1] = { at, text, key, times: last.times + 1 }
      return
    }
    this.errors.push({ at, text, key, times: 1 })
    if (this.errors.length > errorsKept) this.errors.shift()
  }

  /** Folds one event about this place; `at` is the model's clock when it arrived. */
  apply(event: BridgeEvent, at: number) {
    switch (event._tag) {
      case "Link":
        return this.applyLink(event.state, at)
      case "Activity":
        this.bytes = Math.max(this.bytes, event.bytes)
        this.lastBytesAt = Math.max(this.lastBytesAt ?? 0, event.receivedAt)
        this.stats = { ...event.stats }
        return
      case "Reading":
        this.lastReading = event.reading
        this.lastBytesAt = Math.max(this.lastBytesAt ?? 0, event.reading.receivedAt)
        this.stats = { ...event.stats }
        return
      case "Entry":
        this.lastEntry = { itemId: event.itemId, entry: event.entry, answer: { state: "queued", detail: null, at } }
        return
      case "Settled":
        return this.applySettled(event.itemId, event.kind, event.outcome, at)
      case "Press": {
        // A device re-publishing a press already handled is not a press: the last one stays shown.
        if (event.result._tag === "Repeat") return
        const feedback = pressFeedback(this.key, event.press, event.result)
        const itemId = event.result._tag === "Queued" || event.result._tag === "UndoQueued" ? event.result.itemId : null
        this.lastPress = {
          at: event.press.pressedAt,
          source: event.press.source,
          button: String(event.press.button),
          gesture: event.press.gesture,
          text: feedback.text,
          itemId,
          answer: itemId === null ? null : { state: "queued", detail: null, at },
          late: event.result._tag === "Queued" ? event.result.late ?? null : null
        }
        if (feedback.level !== "info") this.note(at, feedback.text, `press ${feedback.status}`)
        return
      }
      case "Finish":
        this.finishes.add(event.finish, event.clickItemId)
        return
      case "ButtonLink":
        return
    }
  }

  /** The last score entry as the outbox kept it across a restart. */
  restore(item: KindItem<"score">) {
    this.lastEntry = { itemId: item.id, entry: item.payload, answer: answerOfItem(item) }
  }

  applyLink(state: LinkState, at: number) {
    const wasDown = this.link?.state._tag === "disconnected"
    this.link = nextLink(this.link, state, at)
    // A port that keeps failing to open reports each retry: one line per outage.
    if (state._tag === "disconnected" && !wasDown) {
      this.note(at, `scoreboard link down (${state.target}): ${state.reason}`, `link down: ${state.reason}`)
    }
  }

  private applySettled(itemId: number, kind: ItemKind, outcome: Outcome, at: number) {
    const answer = answerOfOutcome(outcome, at)
    if (this.lastEntry?.itemId === itemId) this.lastEntry = { ...this.lastEntry, answer }
    if (this.lastPress?.itemId === itemId) this.lastPress = { ...this.lastPress, answer }
    if (answer.state !== "delivered") {
      this.note(at, `${kind} #${itemId} ${answer.state}: ${answer.detail ?? ""}`, `${kind} ${answer.state}: ${answer.detail}`)
    }
  }
}
