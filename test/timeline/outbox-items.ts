import type { ClipDetail, ClipOutcome, FollowUp } from "../../src/domain/follow-up.ts"
import type { ItemKind, ItemState, OutboxItem } from "../../src/delivery/outbox.ts"

/** Outbox items as `Outbox.recent` returns them, and their follow-ups, made by hand: ids in creation order. */
export class ItemLog {
  private readonly items: Array<OutboxItem> = []
  private readonly follows = new Map<number, FollowUp>()

  readonly place: string
  eventKey: string | null

  constructor(place = "court-1", eventKey: string | null = "ev-1") {
    this.place = place
    this.eventKey = eventKey
  }

  add(kind: ItemKind, payload: unknown, createdAt: number, more: Partial<OutboxItem> = {}): OutboxItem {
    const state: ItemState = more.state ?? "delivered"
    const item: OutboxItem = {
      id: this.items.length + 1,
      place: this.place,
      kind,
      payload,
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
    this.items.push(item)
    return item
  }

  score<E extends { readonly timeStamp: number }>(entry: E, more: Partial<OutboxItem> = {}) {
    return this.add("score", entry, entry.timeStamp, more)
  }

  press(at: number, team: "home" | "away" | "none", more: Partial<OutboxItem> = {}) {
    return this.add("click", {
      timeStamp: at,
      startTime: at - 15_000,
      endTime: at + 5_000,
      metadata: { clickId: `c${this.items.length + 1}`, team, source: "courtside-box", button: "1", gesture: "single" }
    }, at, more)
  }

  auto(at: number, team: "home" | "away" | "none", rules: ReadonlyArray<string>, more: Partial<OutboxItem> = {}) {
    return this.add("click", {
      timeStamp: at,
      startTime: at - 12_000,
      endTime: at + 4_000,
      metadata: { clickId: `a${this.items.length + 1}`, team, source: "auto", rule: rules[0], ...(rules.length > 1 ? { rules } : {}) }
    }, at, more)
  }

  undo(click: OutboxItem, at: number, more: Partial<OutboxItem> = {}) {
    return this.add("undo", { clickItemId: click.id }, at, { eventKey: null, ...more })
  }

  /** Settles an item after the fact, as the scheduler would. */
  update(item: OutboxItem, more: Partial<OutboxItem>): OutboxItem {
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

  /** Newest click first, as `Outbox.followUpsOf` answers. */
  followUps(): Array<FollowUp> {
    return [...this.follows.values()].sort((a, b) => b.clickId - a.clickId)
  }

  /** Newest first, as `Outbox.recent` answers. */
  recent(): Array<OutboxItem> {
    return [...this.items].reverse()
  }
}
