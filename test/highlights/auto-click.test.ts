import { describe, expect, it } from "vitest"
import { autoClickIdOf } from "../../src/highlights/auto-click.ts"
import type { AutoHighlight } from "../../src/highlights/score-moments.ts"

const point = (at: number): AutoHighlight => ({ at, rule: "tiebreak-point", rules: ["tiebreak-point"], team: "home", window: { beforeSeconds: 15, afterSeconds: 5 } })
const entry = (home: number, away: number, timeStamp = 1_000) => ({ timeStamp, left: 6, right: 6, tieBreak: [home, away] }) as never

describe("an auto-highlight's click id", () => {
  it("is the same for the same change judged twice (a retried store): stored once", () => {
    expect(autoClickIdOf("court-1", point(1_000), entry(3, 2))).toBe(autoClickIdOf("court-1", point(1_000), entry(3, 2)))
  })

  it("differs for two changes read in one chunk, with one stamp: neither is taken for the other", () => {
    // A stalled reader finds two tie-break points' frames in one read: both entries get its time.
    expect(autoClickIdOf("court-1", point(1_000), entry(3, 2))).not.toBe(autoClickIdOf("court-1", point(1_000), entry(4, 2)))
  })

  it("differs by place and by rule", () => {
    expect(autoClickIdOf("court-1", point(1_000), entry(3, 2))).not.toBe(autoClickIdOf("court-2", point(1_000), entry(3, 2)))
    expect(autoClickIdOf("court-1", point(1_000), entry(3, 2))).not.toBe(autoClickIdOf("court-1", { ...point(1_000), rule: "set-point" }, entry(3, 2)))
  })
})
