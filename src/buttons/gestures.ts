import { Effect, Schema } from "effect"
import type { ButtonEvent } from "../domain/button.ts"
import { ButtonGestures } from "./button-gestures.ts"

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

/** Presses and releases of every button of one source, each button followed on its own. */
export const makeGestureDetector = (options: Partial<GestureOptions> & { readonly source: string }): GestureDetector => {
  const timing = {
    debounceMs: options.debounceMs ?? gestureDefaults.debounceMs,
    holdMs: options.holdMs ?? gestureDefaults.holdMs,
    multiPressMs: options.multiPressMs ?? gestureDefaults.multiPressMs
  }
  const buttons = new Map<string, ButtonGestures>()
  const stats = { edges: 0, bounces: 0 }
  const of = (button: string) => {
    let gestures = buttons.get(button)
    if (gestures === undefined) {
      gestures = new ButtonGestures(timing, (gesture, pressedAt) => ({ source: options.source, button, gesture, pressedAt }))
      buttons.set(button, gestures)
    }
    return gestures
  }
  return {
    stats,
    edge(button, edge, at) {
      const out: Array<ButtonEvent> = []
      if (!Number.isFinite(at)) return out
      stats.edges++
      if (of(button).edge(edge, at, out) === "bounce") stats.bounces++
      return out
    },
    flush(now) {
      const out: Array<ButtonEvent> = []
      for (const gestures of buttons.values()) gestures.advance(now, out)
      return out
    },
    nextDeadline() {
      const dues = [...buttons.values()].map((gestures) => gestures.nextDue()).filter((due) => due !== undefined)
      return dues.length === 0 ? undefined : Math.min(...dues)
    }
  }
}
