import type { ItemKind } from "../domain/item-kinds.ts"

/** What admission needs to know of an outbox item. */
export interface LaneItem {
  readonly id: number
  readonly place: string
  readonly kind: ItemKind
}

/** Clicks of one place delivered at once, at most: each is its own fiber, mostly asleep in a back-off. */
export const clicksInFlightPerPlace = 32

/**
 * Which outbox items may start their delivery now. Scores of a place share one lane (at most one
 * in flight, so the service sees them in capture order); clicks are independent, so one in
 * back-off holds no press behind it. (Undos go one at a time per place without a lane of their
 * own: the outbox offers only a place's oldest pending undo.)
 * Pure bookkeeping: the scheduler forks a delivery for every item `admit` accepts and calls
 * `release` when it ends.
 */
export class Lanes<Item extends LaneItem = LaneItem> {
  private readonly inFlight = new Map<number, Item>()
  private readonly busyScoreLanes = new Set<string>()

  /** True when the item may start now; it then counts as in flight until released. */
  admit(item: Item): boolean {
    if (this.inFlight.has(item.id)) return false
    if (item.kind === "score") {
      if (this.busyScoreLanes.has(item.place)) return false
      this.busyScoreLanes.add(item.place)
    }
    this.inFlight.set(item.id, item)
    return true
  }

  release(item: Item): void {
    if (!this.inFlight.delete(item.id)) return
    if (item.kind === "score") this.busyScoreLanes.delete(item.place)
  }

  /** Items being delivered now, per place. */
  perPlace(): Record<string, number> {
    const counts: Record<string, number> = {}
    for (const item of this.inFlight.values()) counts[item.place] = (counts[item.place] ?? 0) + 1
    return counts
  }
}
