import type { OutboxItem } from "../delivery/outbox.ts"
import type { Finish } from "../domain/race.ts"
import { madeFinishes } from "../highlights/made-finishes.ts"
import { finishTimeMs } from "../timeline/finish-races.ts"

/** A finish the race tracker reported, with the click a rule made of it (its outbox item), if any. */
export interface FinishSeen {
  readonly finish: Finish
  readonly clickItemId: number | null
}

/** Enough for the card: the newest race of a 12-lane pool and the race before it. */
const finishesKept = 24

/** A finish click's finish, as the outbox keeps it (metadata.finish, stamped at the touch). */
const finishOfClick = (item: OutboxItem): ReadonlyArray<FinishSeen> =>
  madeFinishes([item]).flatMap((made) => {
    const timeMs = finishTimeMs(made.time)
    return timeMs === undefined ? [] : [{ finish: { ...made, timeMs }, clickItemId: item.id }]
  })

/** A place's last finishes, in the order the bus reported them; the oldest go first. */
export class FinishLog {
  private readonly seen: Array<FinishSeen> = []

  add(finish: Finish, clickItemId: number | undefined) {
    // A click already rebuilt from the outbox at start, published again: the same swimmer.
    if (clickItemId !== undefined && this.seen.some((s) => s.clickItemId === clickItemId)) return
    this.seen.push({ finish, clickItemId: clickItemId ?? null })
    if (this.seen.length > finishesKept) this.seen.shift()
  }

  /**
   * The finishes of the place's recent outbox items (newest first, as `OutboxItems.recent` reads
   * them), at start: the bus tells only what happens from now on, and a restart between two heats
   * would otherwise show an empty list until the next touch. Only finishes a rule made a click of
   * are in the outbox; the others were on the bus only.
   */
  restore(recent: ReadonlyArray<OutboxItem>) {
    for (const item of [...recent].reverse()) for (const s of finishOfClick(item)) this.add(s.finish, item.id)
  }

  get all(): ReadonlyArray<FinishSeen> {
    return this.seen
  }
}
