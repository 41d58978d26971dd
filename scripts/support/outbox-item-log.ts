import type { ClipDetail, ClipOutcome, FollowUp } from "../../src/domain/follow-up.ts"
import type { ItemOf, ItemState, KindItem, OutboxItem } from "../../src/delivery/outbox.ts"
import type { ClickBody, ScoreEntry } from "../../src/delivery/item-payloads.ts"

/** What a test may set of an item besides its kind and payload. */
type More = Partial<Omit<ItemOf<"score">, "kind" | "payload">>

/** Outbox items as `OutboxItems.recent` returns them, and their follow-ups, made by hand: ids in creation order. */
export class ItemLog {
  private readonly items: Array<OutboxItem> = []
  private readonly follows = new Map<number, FollowUp>()

  readonly place: string
  eventKey: string | null

  constructor(place = "court-1", eventKey: string | null = "ev-1") {
    this.place = place
    this.eventKey = eventKey
  }

  /** What every item gets, settled as `more.state` says (delivered by default). */
  private fields(kind: OutboxItem["kind"], createdAt: number, more: More) {
    const state: ItemState = more.state ?? "delivered"
    return {
      id: this.items.length + 1,
      place: this.place,
      eventKey: this.eventKey,
      dedupeKey: null,
      createdAt,
      attempts: state === "pending" ? 0 : 1,
      notBefore: createdAt,
      state,
      lastError: null,
      result: state === "delivered" && kind === "click" ? { eventKey: this.eventKey, momentKey: `m${this.items.length + 1}` } : null,
      settledAt: state === "pending" ? null : createdAt + 500,
      sentAt: null,
      sentTo: null,
      ...more
    }
  }

  private push<I extends OutboxItem>(item: I): I {
    this.items.push(item)
    return item
  }

  score(entry: typeof ScoreEntry.Type, more: More = {}): KindItem<"score"> {
    return this.push({ ...this.fields("score", entry.timeStamp, more), kind: "score", payload: entry })
  }

  click(body: ClickBody, at: number, more: More = {}): KindItem<"click"> {
    return this.push({ ...this.fields("click", at, more), kind: "click", payload: body })
  }

  press(at: number, team: "home" | "away" | "none", more: More = {}) {
    return this.click({
      timeStamp: at,
      startTime: at - 15_000,
      endTime: at + 5_000,
      metadata: { clickId: `c${this.items.length + 1}`, team, source: "courtside-box", button: "1", gesture: "single" }
    }, at, more)
  }

  auto(at: number, team: "home" | "away" | "none", rules: ReadonlyArray<string>, more: More = {}) {
    return this.click({
      timeStamp: at,
      startTime: at - 12_000,
      endTime: at + 4_000,
      metadata: { clickId: `a${this.items.length + 1}`, team, source: "auto", rule: rules[0]!, ...(rules.length > 1 ? { rules } : {}) }
    }, at, more)
  }

  undo(click: OutboxItem, at: number, more: More = {}): KindItem<"undo"> {
    return this.push({ ...this.fields("undo", at, { eventKey: null, ...more }), kind: "undo", payload: { clickItemId: click.id } })
  }

  /** Settles an item after the fact, as the scheduler would. */
  update<I extends OutboxItem>(item: I, more: More): I {
    const updated = { ...item, ...more }
    this.items[item.id - 1] = updated
    return updated
  }

  /**
   * The click's follow-up as the outbox keeps it: open while `outcome` is null, else settled
   * (a second call replaces it, as a settlement would).
   */
  follow(click: OutboxItem, outcome: ClipOutcome | null, detail: ClipDetail | null = null, more: Partial<FollowUp> = {}): FollowUp {
    const acceptedAt = click.settledAt ?? click.createdAt
    const momentKey = (click.result as { momentKey?: string } | null)?.momentKey ?? `m${click.id}`
    const followUp: FollowUp = {
      clickId: click.id,
      place: click.place,
      momentKey,
      pressedAt: click.createdAt,
      acceptedAt,
      reads: outcome === null ? 0 : 2,
      nextReadAt: acceptedAt + 10_000,
      outcome,
      detail,
      settledAt: outcome === null ? null : acceptedAt + 30_000,
      lastError: null,
      ...more
    }
    this.follows.set(click.id, followUp)
    return followUp
  }

  /** Newest click first, as `ClipFollowUps.followUpsOf` answers. */
  followUps(): Array<FollowUp> {
    return [...this.follows.values()].sort((a, b) => b.clickId - a.clickId)
  }

  /** Newest first, as `OutboxItems.recent` answers. */
  recent(): Array<OutboxItem> {
    return [...this.items].reverse()
  }
}
