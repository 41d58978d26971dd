import type { Finish } from "../domain/race.ts"

/** A finish the race tracker reported, with the click a rule made of it (its outbox item), if any. */
export interface FinishSeen {
  readonly finish: Finish
  readonly clickItemId: number | null
}

/** Enough for the card: the newest race of a 12-lane pool and the race before it. */
const finishesKept = 24

/** A place's last finishes, in the order the bus reported them; the oldest go first. */
export class FinishLog {
  private readonly seen: Array<FinishSeen> = []

  add(finish: Finish, clickItemId: number | undefined) {
    this.seen.push({ finish, clickItemId: clickItemId ?? null })
    if (this.seen.length > finishesKept) this.seen.shift()
  }

  get all(): ReadonlyArray<FinishSeen> {
    return this.seen
  }
}
