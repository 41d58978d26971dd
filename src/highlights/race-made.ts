/**
 * The finishes already made: those the outbox holds from before a restart, and those this tracker
 * reported. A restart mid-race joins the race again and finds its finished lanes still showing
 * their results; the same lane and time stamped within a few seconds of one made is that swimmer.
 */
import type { Finish, FinishFacts } from "../domain/race.ts"

/** A finish made before a restart (from the outbox): the same swimmer is not reported again. */
export type MadeFinish = FinishFacts & { readonly at: number }

/** Two stamps of one touch differ by the start estimates they came from (tenths), never by seconds. */
const sameTouchMs = 5000

export class MadeFinishes {
  private made: Array<MadeFinish>

  constructor(made: ReadonlyArray<MadeFinish>) {
    this.made = [...made]
  }

  has(finish: Finish): boolean {
    return this.made.some((made) => made.lane === finish.lane && made.time === finish.time && Math.abs(made.at - finish.at) <= sameTouchMs)
  }

  add(finish: Finish): void {
    this.made.push(finish)
  }

  /**
   * The event/heat of the race started at `startedAt`, as its finishes made before a restart carry
   * them: the board may show the next race's by the time a restarted bridge joins the race.
   */
  numbersSince(startedAt: number): Pick<MadeFinish, "event" | "heat"> | undefined {
    const ofRace = this.made.filter((made) => made.at >= startedAt && (made.event !== undefined || made.heat !== undefined))
    const last = ofRace.sort((a, b) => a.at - b.at).at(-1)
    return last === undefined ? undefined : { ...(last.event === undefined ? {} : { event: last.event }), ...(last.heat === undefined ? {} : { heat: last.heat }) }
  }

  /** A race started: a finish made before it can no longer be confused with one of its touches. */
  startedAt(startedAt: number): void {
    this.made = this.made.filter((made) => made.at >= startedAt - sameTouchMs)
  }
}
