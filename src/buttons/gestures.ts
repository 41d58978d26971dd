import { Effect, Schema } from "effect"
import type { ButtonEvent, Gesture } from "../domain/button.ts"

/**
 * Raw press/release edges → gestures, for sources that only report edges
 * (input devices, GPIO, Shelly `btn_down`/`btn_up`). Pure and time-driven:
 * it never reads a clock, so the caller passes edge times in and calls
 * `flush(now)` from a timer (at `nextDeadline()`) to release decisions whose
 * window has elapsed.
 *
 * Decisions, per button:
 * - An edge closer than `debounceMs` to the previous accepted edge is contact
 *   bounce and is dropped.
 * - `hold` is emitted as soon as the button has been down for `holdMs` (at the
 *   threshold, not at release, so an "undo" reacts while the finger is still
 *   down); the release that ends a hold is emitted as `release`.
 * - While hold detection is on, a short press is only known to be `single`
 *   once it is released (typically 100–200 ms later); the event is still
 *   stamped with the press edge. `holdMs: 0` turns hold detection off, and
 *   with `multiPressMs: 0` a press is then `single` at its press edge.
 * - `multiPressMs` > 0: presses that start within that time of the previous
 *   release count together; the count becomes single/double/triple when the
 *   window closes (a third press decides at once: nothing comes after triple).
 * - Every gesture is stamped with the press edge of its first press.
 */
export const gestureDefaults = { debounceMs: 40, holdMs: 800, multiPressMs: 0 } as const

const Millis = (maximum: number) => Schema.Int.check(Schema.isBetween({ minimum: 0, maximum }))

export const gestureOptionsSchema = Schema.Struct({
  debounceMs: Millis(1_000).annotate({ description: "Edges closer than this to the previous accepted edge are bounce (ms)." })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(gestureDefaults.debounceMs))),
  holdMs: Millis(10_000).annotate({ description: "Pressed this long = hold (ms); 0 turns hold detection off." })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(gestureDefaults.holdMs))),
  multiPressMs: Millis(2_000).annotate({ description: "Window for double/triple presses (ms); 0 = every press is single." })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(gestureDefaults.multiPressMs)))
})

export type GestureOptions = typeof gestureOptionsSchema.Type

export type Edge = "press" | "release"

export interface GestureDetector {
  /** One raw edge of `button` at `at` (ms). Returns the gestures decided up to and by this edge. */
  edge(button: string, edge: Edge, at: number): Array<ButtonEvent>
  /** Gestures whose window or hold threshold has passed by `now`. */
  flush(now: number): Array<ButtonEvent>
  /** When `flush` next has something to decide, if anything is pending. */
  nextDeadline(): number | undefined
  readonly stats: { edges: number; bounces: number }
}

interface ButtonState {
  down: boolean
  lastEdgeAt: number | undefined
  /** Press edge of the press in progress. */
  pressAt: number
  holdEmitted: boolean
  /** Presses counted in the current sequence, and the first one's edge time. */
  presses: number
  firstPressAt: number
  /** When the open sequence is decided, if it is waiting for more presses. */
  windowEndsAt: number | undefined
}

const counted: ReadonlyArray<Gesture> = ["single", "double", "triple"]
const maxPresses = counted.length

export const makeGestureDetector = (options: Partial<GestureOptions> & { readonly source: string }): GestureDetector => {
  const debounceMs = options.debounceMs ?? gestureDefaults.debounceMs
  const holdMs = options.holdMs ?? gestureDefaults.holdMs
  const multiPressMs = options.multiPressMs ?? gestureDefaults.multiPressMs
  const states = new Map<string, ButtonState>()
  const stats = { edges: 0, bounces: 0 }

  const event = (button: string, gesture: Gesture, pressedAt: number): ButtonEvent =>
    ({ source: options.source, button, gesture, pressedAt })

  const closeSequence = (button: string, state: ButtonState, out: Array<ButtonEvent>) => {
    if (state.presses > 0) out.push(event(button, counted[state.presses - 1]!, state.firstPressAt))
    state.presses = 0
    state.windowEndsAt = undefined
  }

  const holdDueAt = (state: ButtonState) =>
    state.down && holdMs > 0 && !state.holdEmitted ? state.pressAt + holdMs : undefined

  /** Everything whose time has come by `now`, in time order for this button. */
  const advance = (button: string, state: ButtonState, now: number, out: Array<ButtonEvent>) => {
    const holdAt = holdDueAt(state)
    if (holdAt !== undefined && now >= holdAt) {
      // Earlier short presses of the sequence stand on their own; the held one is the hold.
      state.presses--
      closeSequence(button, state, out)
      state.holdEmitted = true
      out.push(event(button, "hold", state.pressAt))
    }
    if (state.windowEndsAt !== undefined && !state.down && now >= state.windowEndsAt) closeSequence(button, state, out)
  }

  const press = (button: string, state: ButtonState, at: number, out: Array<ButtonEvent>) => {
    state.down = true
    state.pressAt = at
    state.holdEmitted = false
    if (state.presses === 0) state.firstPressAt = at
    state.presses++
    state.windowEndsAt = undefined
    if (holdMs === 0 && (multiPressMs === 0 || state.presses === maxPresses)) closeSequence(button, state, out)
  }

  const release = (button: string, state: ButtonState, at: number, out: Array<ButtonEvent>) => {
    state.down = false
    if (state.holdEmitted) {
      out.push(event(button, "release", at))
      state.holdEmitted = false
      return
    }
    if (state.presses === 0) return
    if (multiPressMs === 0 || state.presses === maxPresses) closeSequence(button, state, out)
    else state.windowEndsAt = at + multiPressMs
  }

  const stateOf = (button: string): ButtonState => {
    let state = states.get(button)
    if (state === undefined) {
      state = { down: false, lastEdgeAt: undefined, pressAt: 0, holdEmitted: false, presses: 0, firstPressAt: 0, windowEndsAt: undefined }
      states.set(button, state)
    }
    return state
  }

  return {
    stats,
    edge(button, edge, at) {
      const out: Array<ButtonEvent> = []
      if (!Number.isFinite(at)) return out
      stats.edges++
      const state = stateOf(button)
      const sinceLast = state.lastEdgeAt === undefined ? Infinity : at - state.lastEdgeAt
      // A negative gap is a clock step, not bounce: take the edge.
      if (sinceLast >= 0 && sinceLast < debounceMs) {
        stats.bounces++
        return out
      }
      advance(button, state, at, out)
      if (edge === "press") {
        // Two presses in a row: the release between them was lost; end the first press here.
        if (state.down) release(button, state, at, out)
        press(button, state, at, out)
      } else if (state.down) {
        release(button, state, at, out)
      } else {
        return out
      }
      state.lastEdgeAt = at
      return out
    },
    flush(now) {
      const out: Array<ButtonEvent> = []
      for (const [button, state] of states) advance(button, state, now, out)
      return out
    },
    nextDeadline() {
      let next: number | undefined
      for (const state of states.values()) {
        for (const due of [holdDueAt(state), state.down ? undefined : state.windowEndsAt]) {
          if (due !== undefined && (next === undefined || due < next)) next = due
        }
      }
      return next
    }
  }
}
