import { describe, expect, it } from "vitest"
import { gestureDefaults, makeGestureDetector } from "../../src/buttons/gestures.ts"
import type { ButtonEvent } from "../../src/domain/button.ts"

const source = "pedal"
const t0 = 1_700_000_000_000
const ev = (gesture: ButtonEvent["gesture"], pressedAt: number, button = "1"): ButtonEvent => ({ source, button, gesture, pressedAt })

type Step = readonly [edge: "press" | "release", at: number]

/** Feeds edges of button "1"; collects everything, flushing only where asked. */
const run = (detector: ReturnType<typeof makeGestureDetector>, steps: ReadonlyArray<Step>, flushAt?: number) => {
  const out = steps.flatMap(([edge, at]) => detector.edge("1", edge, at))
  if (flushAt !== undefined) out.push(...detector.flush(flushAt))
  return out
}

describe("gestures: defaults (debounce 40 ms, hold 800 ms, no multi-press window)", () => {
  it("has the documented defaults", () => {
    expect(gestureDefaults).toEqual({ debounceMs: 40, holdMs: 800, multiPressMs: 0 })
  })

  it("a short press is single at release, stamped with the press edge", () => {
    const d = makeGestureDetector({ source })
    expect(d.edge("1", "press", t0)).toEqual([])
    expect(d.nextDeadline()).toBe(t0 + 800)
    expect(d.edge("1", "release", t0 + 150)).toEqual([ev("single", t0)])
    expect(d.nextDeadline()).toBeUndefined()
  })

  it("drops edges closer than the debounce time to the last accepted one", () => {
    const d = makeGestureDetector({ source })
    const out = run(d, [["press", t0], ["release", t0 + 5], ["press", t0 + 12], ["release", t0 + 120], ["press", t0 + 130], ["release", t0 + 139]])
    expect(out).toEqual([ev("single", t0)])
    expect(d.stats).toEqual({ edges: 6, bounces: 4 })
    // 40 ms is not bounce any more.
    expect(run(d, [["press", t0 + 160], ["release", t0 + 200]])).toEqual([ev("single", t0 + 160)])
  })

  it("hold is emitted at the threshold by flush, and the release after it as release", () => {
    const d = makeGestureDetector({ source })
    expect(d.edge("1", "press", t0)).toEqual([])
    expect(d.flush(t0 + 799)).toEqual([])
    expect(d.flush(t0 + 800)).toEqual([ev("hold", t0)])
    expect(d.flush(t0 + 2000)).toEqual([])
    expect(d.nextDeadline()).toBeUndefined()
    expect(d.edge("1", "release", t0 + 2100)).toEqual([ev("release", t0 + 2100)])
  })

  it("a late timer does not lose the hold: the release decides it", () => {
    const d = makeGestureDetector({ source })
    expect(run(d, [["press", t0], ["release", t0 + 1000]])).toEqual([ev("hold", t0), ev("release", t0 + 1000)])
  })

  it("buttons are independent", () => {
    const d = makeGestureDetector({ source })
    const out = [
      ...d.edge("1", "press", t0),
      ...d.edge("2", "press", t0 + 10),
      ...d.edge("2", "release", t0 + 100),
      ...d.flush(t0 + 900),
      ...d.edge("1", "release", t0 + 950)
    ]
    expect(out).toEqual([ev("single", t0 + 10, "2"), ev("hold", t0), ev("release", t0 + 950)])
  })

  it("a lost release does not wedge the button: the next press ends the previous one", () => {
    const d = makeGestureDetector({ source })
    expect(run(d, [["press", t0], ["press", t0 + 300], ["release", t0 + 400]])).toEqual([ev("single", t0), ev("single", t0 + 300)])
    expect(d.edge("1", "release", t0 + 600)).toEqual([])
  })

  it("ignores non-finite times", () => {
    const d = makeGestureDetector({ source })
    expect(d.edge("1", "press", Number.NaN)).toEqual([])
    expect(d.stats.edges).toBe(0)
  })
})

describe("gestures: holdMs 0 (hold detection off)", () => {
  it("a press is single at its press edge: lowest latency", () => {
    const d = makeGestureDetector({ source, holdMs: 0 })
    expect(d.edge("1", "press", t0)).toEqual([ev("single", t0)])
    expect(d.edge("1", "release", t0 + 5000)).toEqual([])
    expect(d.nextDeadline()).toBeUndefined()
  })
})

describe("gestures: multi-press window", () => {
  const options = { source, multiPressMs: 300 }

  it("double and triple are decided after the window, stamped with the first press", () => {
    const d = makeGestureDetector(options)
    expect(run(d, [["press", t0], ["release", t0 + 100], ["press", t0 + 250], ["release", t0 + 350]])).toEqual([])
    expect(d.nextDeadline()).toBe(t0 + 650)
    expect(d.flush(t0 + 649)).toEqual([])
    expect(d.flush(t0 + 650)).toEqual([ev("double", t0)])
  })

  it("a third press decides at once", () => {
    const d = makeGestureDetector(options)
    const out = run(d, [["press", t0], ["release", t0 + 100], ["press", t0 + 250], ["release", t0 + 350], ["press", t0 + 500], ["release", t0 + 600]])
    expect(out).toEqual([ev("triple", t0)])
  })

  it("a single waits for the window; a press after it starts a new sequence", () => {
    const d = makeGestureDetector(options)
    expect(run(d, [["press", t0], ["release", t0 + 100]])).toEqual([])
    // No flush in between: the next edge closes the old window first.
    expect(run(d, [["press", t0 + 401], ["release", t0 + 500]], t0 + 800)).toEqual([ev("single", t0), ev("single", t0 + 401)])
  })

  it("press, then press and hold: the first stands alone, the second is a hold", () => {
    const d = makeGestureDetector(options)
    expect(run(d, [["press", t0], ["release", t0 + 100], ["press", t0 + 200]], t0 + 1000)).toEqual([ev("single", t0), ev("hold", t0 + 200)])
    expect(d.edge("1", "release", t0 + 1200)).toEqual([ev("release", t0 + 1200)])
  })

  it("with hold off, presses are counted at the press edge", () => {
    const d = makeGestureDetector({ ...options, holdMs: 0 })
    expect(run(d, [["press", t0], ["release", t0 + 100], ["press", t0 + 200], ["release", t0 + 250]], t0 + 550)).toEqual([ev("double", t0)])
  })
})
