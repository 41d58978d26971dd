import type { ButtonEvent, Gesture } from "../domain/button.ts"

export interface GestureTiming {
  readonly debounceMs: number
  readonly holdMs: number
  readonly multiPressMs: number
}

const counted: ReadonlyArray<Gesture> = ["single", "double", "triple"]
const maxPresses = counted.length

/**
 * One button's edges → its gestures (the rules are in gestures.ts). Decisions are pushed to
 * `out` in time order; `event` makes the gesture of this button.
 */
export class ButtonGestures {
  private down = false
  private lastEdgeAt: number | undefined = undefined
  /** Press edge of the press in progress. */
  private pressAt = 0
  private holdEmitted = false
  /** Presses counted in the current sequence, and the first one's edge time. */
  private presses = 0
  private firstPressAt = 0
  /** When the open sequence is decided, if it is waiting for more presses. */
  private windowEndsAt: number | undefined = undefined
  private readonly timing: GestureTiming
  private readonly event: (gesture: Gesture, pressedAt: number) => ButtonEvent

  constructor(timing: GestureTiming, event: (gesture: Gesture, pressedAt: number) => ButtonEvent) {
    this.timing = timing
    this.event = event
  }

  /** One edge; "bounce" when it came closer than `debounceMs` to the last accepted one and was dropped. */
  edge(edge: "press" | "release", at: number, out: Array<ButtonEvent>): "bounce" | "taken" {
    const sinceLast = this.lastEdgeAt === undefined ? Infinity : at - this.lastEdgeAt
    // A negative gap is a clock step, not bounce: take the edge.
    if (sinceLast >= 0 && sinceLast < this.timing.debounceMs) return "bounce"
    this.advance(at, out)
    if (edge === "press") {
      // Two presses in a row: the release between them was lost; end the first press here.
      if (this.down) this.release(at, out)
      this.press(at, out)
    } else if (this.down) {
      this.release(at, out)
    } else {
      return "taken"
    }
    this.lastEdgeAt = at
    return "taken"
  }

  /** Everything whose time has come by `now`, in time order. */
  advance(now: number, out: Array<ButtonEvent>): void {
    const holdAt = this.holdDueAt()
    if (holdAt !== undefined && now >= holdAt) {
      // Earlier short presses of the sequence stand on their own; the held one is the hold.
      this.presses--
      this.closeSequence(out)
      this.holdEmitted = true
      out.push(this.event("hold", this.pressAt))
    }
    if (this.windowEndsAt !== undefined && !this.down && now >= this.windowEndsAt) this.closeSequence(out)
  }

  /** When `advance` next has something to decide, if anything is pending. */
  nextDue(): number | undefined {
    const dues = [this.holdDueAt(), this.down ? undefined : this.windowEndsAt].filter((due) => due !== undefined)
    return dues.length === 0 ? undefined : Math.min(...dues)
  }

  private holdDueAt(): number | undefined {
    return this.down && this.timing.holdMs > 0 && !this.holdEmitted ? this.pressAt + this.timing.holdMs : undefined
  }

  private closeSequence(out: Array<ButtonEvent>): void {
    if (this.presses > 0) out.push(this.event(counted[this.presses - 1]!, this.firstPressAt))
    this.presses = 0
    this.windowEndsAt = undefined
  }

  private press(at: number, out: Array<ButtonEvent>): void {
    this.down = true
    this.pressAt = at
    this.holdEmitted = false
    if (this.presses === 0) this.firstPressAt = at
    this.presses++
    this.windowEndsAt = undefined
    if (this.timing.holdMs === 0 && (this.timing.multiPressMs === 0 || this.presses === maxPresses)) this.closeSequence(out)
  }

  private release(at: number, out: Array<ButtonEvent>): void {
    this.down = false
    if (this.holdEmitted) {
      out.push(this.event("release", at))
      this.holdEmitted = false
      return
    }
    if (this.presses === 0) return
    if (this.timing.multiPressMs === 0 || this.presses === maxPresses) this.closeSequence(out)
    else this.windowEndsAt = at + this.timing.multiPressMs
  }
}
