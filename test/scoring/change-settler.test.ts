import { describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import type { GenericEntry } from "../../src/domain/score-entry.ts"
import { ChangeSettler } from "../../src/scoring/change-settler.ts"
import { ScoreChange } from "../../src/scoring/score-change.ts"
import { defaultSettleMs } from "../../src/config/settle-window.ts"

const at = (timeStamp: number, left: number, right: number, period = 1): GenericEntry => ({ timeStamp, left, right, period })

/** Offers each candidate, then lets time run to `end`; returns what settled, as the pipeline stores it. */
const run = (windowMs: number, candidates: ReadonlyArray<GenericEntry>, end = 10_000, last?: GenericEntry) => {
  const change = new ScoreChange(last)
  const settler = new ChangeSettler(change, windowMs)
  const out: Array<GenericEntry> = []
  const keep = (entries: ReadonlyArray<unknown>) => {
    for (const entry of entries as ReadonlyArray<GenericEntry>) {
      change.remember(entry)
      out.push(entry)
    }
  }
  for (const candidate of candidates) keep(settler.offer(candidate))
  keep(settler.due(end))
  return { out, settler }
}

describe("ChangeSettler", () => {
  it("makes one entry of a burst, with its last state and its first frame's time", () => {
    // A won game as a console sends it: period, then home, then away, 15 ms apart.
    const { out } = run(80, [at(1_000, 0, 0, 2), at(1_015, 3, 0, 2), at(1_030, 3, 1, 2)])
    expect(out).toEqual([at(1_000, 3, 1, 2)])
  })

  it("keeps changes further apart than the window apart, corrections included", () => {
    const { out } = run(80, [at(1_000, 2, 0), at(1_300, 5, 0), at(1_600, 2, 0)])
    expect(out).toEqual([at(1_000, 2, 0), at(1_300, 5, 0), at(1_600, 2, 0)])
  })

  it("measures the window from the last frame that changed the score, not from every frame", () => {
    const settler = new ChangeSettler(new ScoreChange(undefined), 80)
    settler.offer(at(1_000, 1, 0))
    // A clock frame (same score) 50 ms later does not extend the burst.
    settler.offer(at(1_050, 1, 0))
    expect(settler.deadline).toBe(1_080)
    settler.offer(at(1_060, 2, 0))
    expect(settler.deadline).toBe(1_140)
    expect(settler.due(1_139)).toEqual([])
    expect(settler.due(1_140)).toEqual([at(1_000, 2, 0)])
    expect(settler.holding).toBe(false)
  })

  it("holds a burst a little longer after the daemon could not look (its loop was held), and only then", () => {
    const settler = new ChangeSettler(new ScoreChange(undefined), 80)
    const watch = { blindMs: 25, graceMs: 30 }
    settler.watch(1_000, watch)
    settler.offer(at(1_000, 0, 0, 2))
    // Looks 10 ms apart: the window runs from the frame.
    for (const now of [1_010, 1_020, 1_030]) settler.watch(now, watch)
    expect(settler.deadline).toBe(1_080)
    // The next look 150 ms later, past the window: frames may be waiting unread, so it is not settled yet.
    settler.watch(1_180, watch)
    expect(settler.due(1_180)).toEqual([])
    expect(settler.deadline).toBe(1_210)
    // The rest of the change, read after the hold, joins the burst and extends it as any frame does.
    settler.offer(at(1_185, 3, 0, 2))
    expect(settler.deadline).toBe(1_265)
    expect(settler.due(1_265)).toEqual([at(1_000, 3, 0, 2)])
    // With nothing held, a gap is only the next look.
    settler.watch(5_000, watch)
    settler.offer(at(5_000, 4, 0, 2))
    expect(settler.deadline).toBe(5_080)
  })

  it("still settles a burst whose looks keep coming late, ten windows after its first frame", () => {
    const settler = new ChangeSettler(new ScoreChange(undefined), 80)
    settler.offer(at(1_000, 1, 0))
    for (let now = 1_000; now < 1_800; now += 50) {
      settler.watch(now, { blindMs: 25, graceMs: 30 })
      expect(settler.due(now)).toEqual([])
    }
    settler.watch(1_800, { blindMs: 25, graceMs: 30 })
    expect(settler.due(1_800)).toEqual([at(1_000, 1, 0)])
  })

  it("settles a burst that keeps changing after ten windows", () => {
    const changing = Array.from({ length: 30 }, (_, i) => at(1_000 + 50 * i, i + 1, 0))
    const { out } = run(80, changing, 3_000)
    expect(out[0]).toEqual(at(1_000, 16, 0))
    expect(out.length).toBe(2)
  })

  it("makes nothing of a burst that ends where it began, or of the score already stored", () => {
    expect(run(80, [at(1_000, 3, 0), at(1_010, 2, 0)], 10_000, at(0, 2, 0)).out).toEqual([])
    expect(run(80, [at(1_000, 2, 0)], 10_000, at(0, 2, 0)).out).toEqual([])
  })

  it("with a window of 0, passes every change at once", () => {
    const settler = new ChangeSettler(new ScoreChange(undefined), 0)
    expect(settler.offer(at(1_000, 1, 0))).toEqual([at(1_000, 1, 0)])
    expect(settler.holding).toBe(false)
  })
})

describe("defaultSettleMs", () => {
  it("holds partial-update protocols by line speed and never holds full-state ones", () => {
    expect(defaultSettleMs(protocols["daktronics-rtd"]!)).toBe(80)
    expect(defaultSettleMs(protocols["daktronics-rtd"]!, { kind: "serial", baudRate: 9600 })).toBe(130)
    expect(defaultSettleMs(protocols["daktronics-rtd"]!, { kind: "serial", baudRate: 115200 })).toBe(40)
    expect(defaultSettleMs(protocols["daktronics-rtd"]!, { kind: "mqtt" })).toBe(80)
    expect(defaultSettleMs(protocols["daktronics-rtd"]!, { kind: "network" })).toBe(90)
    for (const name of ["stramatel-452m", "lines", "json"]) expect(defaultSettleMs(protocols[name]!)).toBe(0)
  })
})
