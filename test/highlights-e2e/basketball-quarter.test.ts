import { afterEach, describe, expect, it } from "vitest"
import { defaultRuleWindow } from "../../src/domain/rule-catalog.ts"
import { daktronicsBasketball } from "../scoreboard/consoles/daktronics.ts"
import { resources, stampToleranceMs, type WriteTimes } from "../scoreboard/harness.ts"
import { basketballEntry, basketballQuarter } from "../scoreboard/matches/basketball-quarter.ts"
import { expectedEntries } from "../scoreboard/matches/match.ts"
import { startPtyBridge } from "../scoreboard/pty-match.ts"
import { basketballAutos as oracle } from "./basketball-oracle.ts"
import { acceptedScores, expectAutoClicks, expectScores, lagOf, outboxByKind, playSteps, untilClicksAndScoresIn, untilDrained } from "./support.ts"

/**
 * A basketball quarter from a Daktronics console over a pty, the daemon a real process: the
 * simulator gets exactly the auto-highlights the rules select, each once, stamped at its entry.
 */

describe("auto-highlights of a basketball quarter (daktronics-rtd over a pty, daemon as a process)", () => {
  const res = resources()
  afterEach(() => res.release())

  it("exactly the three-pointers, lead changes and the quarter's end, each once, stamped at its entry, default windows", async () => {
    const steps = basketballQuarter(3)
    const entries = expectedEntries(steps, (b) => basketballEntry(b))
    const autos = oracle(steps)
    // The model must exercise every rule, and at least one change two rules agree on.
    expect(autos.filter((a) => a.rule === "score").length).toBeGreaterThan(3)
    expect(autos.filter((a) => a.rules.includes("lead-change")).length).toBeGreaterThan(1)
    expect(autos.filter((a) => a.rule === "period-end")).toHaveLength(1)
    expect(autos.some((a) => a.rules.length > 1)).toBe(true)

    const console = daktronicsBasketball()
    const { bridge, writer } = await startPtyBridge(res, "basketball", console as never, {
      process: true,
      place: { autoHighlights: [{ rule: "score", atLeast: 3 }, { rule: "lead-change" }, { rule: "period-end" }] }
    })
    const written: WriteTimes = []
    const zeroStep = autos.find((a) => a.rule === "period-end")!.step
    await playSteps(steps, console, writer.write, written, { to: zeroStep })
    // The 0.0 write is read by a quiet daemon: its stamp is the one thing measured there.
    await untilDrained(bridge)
    await playSteps(steps, console, writer.write, written, { from: zeroStep })
    await untilClicksAndScoresIn(bridge, autos.length)

    const scores = await acceptedScores(bridge)
    expectScores(scores, entries, written, bridge.eventKey)
    const entryAt = new Map(entries.map((e, i) => [e.step, i]))

    const clicks = await expectAutoClicks(bridge, autos)
    // `rules` is there only when several rules agreed.
    for (const c of clicks) expect(c.metadata.rules === undefined || c.metadata.rules.length > 1).toBe(true)

    autos.forEach((auto, i) => {
      const click = clicks[i]!
      const window = defaultRuleWindow(auto.rule as "score", "basketball")
      expect(click.timeStamp - click.startTime, `${auto.rule} window before`).toBe(window.beforeSeconds * 1000)
      expect(click.endTime - click.timeStamp, `${auto.rule} window after`).toBe(window.afterSeconds * 1000)
      if (auto.rule === "period-end") {
        // No entry of its own: stamped when the clock showed 0.0, carrying the last entry.
        const lag = lagOf(click.timeStamp, written[auto.step]!)
        expect(lag, `period-end stamped ${lag} ms after the 0.0 write`).toBeGreaterThanOrEqual(0)
        expect(lag).toBeLessThanOrEqual(stampToleranceMs)
        expect(click.score).toEqual(scores.at(-1)!.body)
      } else {
        const entry = scores[entryAt.get(auto.step)!]!.body
        expect(click.timeStamp, `${auto.rules.join("+")} at step ${auto.step}: stamped at its entry`).toBe(entry.timeStamp)
        expect(click.score).toEqual(entry)
      }
    })
    expect(await outboxByKind(bridge), "outbox items by kind and state").toEqual({ "score/delivered": entries.length, "auto/delivered": autos.length })
  }, 60_000)
})
