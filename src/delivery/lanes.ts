import type { ItemKind } from "../domain/item-kinds.ts"

/** What admission needs to know of an outbox item. */
export interface LaneItem {
  readonly id: number
  readonly place: string
  readonly kind: ItemKind
}

/**
 * A place's two score lanes: its live event's entries, and past events' entries (a backlog left by
 * an outage). Each has one entry in flight at most, so one lane's back-off or backlog never holds
 * the other: the live score goes out while the past drains (see score-lanes.ts).
 */
export type ScoreLane = "live" | "past"

/** Clicks of one place delivered at once, at most: each is its own fiber, mostly asleep in a back-off. */
export const clicksInFlightPerPlace = 32

/**
 * Which outbox items may start their delivery now. Scores of a place go through its two score
 * lanes, one entry in flight in each (so the service sees each lane's entries in the order the
 * scheduler picks them); clicks are independent, so one in back-off holds no press behind it.
 * (Undos go one at a time per place without a lane of their own: the outbox offers only a place's
 * oldest pending undo.) Pure bookkeeping: the scheduler forks a delivery for every item `admit`
 * accepts and calls `release` when it ends.
 */
export class Lanes<Item extends LaneItem = LaneItem> {
  private readonly inFlight = new Map<number, { readonly item: Item; readonly lane: string | undefined }>()
  private readonly busyScoreLanes = new Set<string>()

  /** True when the item may start now; it then counts as in flight until released. */
  admit(item: Item, scoreLane: ScoreLane = "live"): boolean {
    if (this.inFlight.has(item.id)) return false
    const lane = item.kind === "score" ? `${scoreLane}\u0000${item.place}` : undefined
    if (lane !== undefined) {
      if (this.busyScoreLanes.has(lane)) return false
      this.busyScoreLanes.add(lane)
    }
    this.inFlight.set(item.id, { item, lane })
    return true
  }

  /** Whether a place's score lane has an entry in flight. */
  busy(place: string, scoreLane: ScoreLane): boolean {
    return this.busyScoreLanes.has(`${scoreLane}\u0000${place}`)
  }

  /** The in-flight item `from` is replaced by `to`, of the same place and lane: the lane stays busy. */
  handOver(from: Item, to: Item): void {
    const entry = this.inFlight.get(from.id)
    if (entry === undefined) return
    this.inFlight.delete(from.id)
    this.inFlight.set(to.id, { item: to, lane: entry.lane })
  }

  release(item: Item): void {
    const entry = this.inFlight.get(item.id)
    if (entry === undefined) return
    this.inFlight.delete(item.id)
    if (entry.lane !== undefined) this.busyScoreLanes.delete(entry.lane)
  }

  /** Items being delivered now, per place. */
  perPlace(): Record<string, number> {
    const counts: Record<string, number> = {}
    for (const { item } of this.inFlight.values()) counts[item.place] = (counts[item.place] ?? 0) + 1
    return counts
  }
}
