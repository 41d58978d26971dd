import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { parseAutoRules } from "../../src/config/auto-highlights.ts"
import { defaultRuleWindow } from "../../src/domain/rule-catalog.ts"
import type { ClickBody } from "../../src/service/schemas.ts"
import { basketballAutos } from "../highlights-e2e/basketball-oracle.ts"
import { playSteps } from "../highlights-e2e/support.ts"
import { daktronicsBasketball } from "../scoreboard/consoles/daktronics.ts"
import { basketballEntry, basketballQuarter } from "../scoreboard/matches/basketball-quarter.ts"
import { pipelineScene } from "./pipeline-scene.ts"

/**
 * The score pipeline's third step on virtual time: the auto-highlights its rules select are stored
 * with their entries, each once, stamped at its entry (a period's end at the frame that showed
 * 0.0), with the rule's default window, held for a press to replace them. The same quarter runs
 * through a real pty and daemon to the simulator in test/highlights-e2e/basketball-quarter.test.ts.
 */
const mergeMs = 5_000

describe("auto-highlights of a basketball quarter on virtual time", () => {
  for (const seed of [3, 4, 5]) {
    it.effect(`quarter ${seed}: exactly the three-pointers, lead changes and the quarter's end, each once, stamped at its entry`, () =>
      Effect.gen(function*() {
        const steps = basketballQuarter(seed)
        const autos = basketballAutos(steps)
        expect(autos.filter((a) => a.rule === "score").length).toBeGreaterThan(0)
        expect(autos.filter((a) => a.rule === "period-end")).toHaveLength(1)
        const rules = Result.getOrThrow(parseAutoRules(JSON.stringify([{ rule: "score", atLeast: 3 }, { rule: "lead-change" }, { rule: "period-end" }]), "basketball"))
        const console = daktronicsBasketball()
        const { entries, written, expected, clicks } = yield* pipelineScene({
          console, sport: "basketball", steps, entryOf: (b) => basketballEntry(b), exactStamps: true,
          autos: { rules, mergeMs, overlayFor: () => ({}) },
          play: (clock, write, times) => playSteps(steps, console, write, times, { clock })
        })
        // In the order of their moments: a basket at the buzzer is stored after the 0.0 that follows
        // it, since its entry waits out the settle window and the period's end does not.
        const inOrder = [...clicks].sort((a, b) => (a.payload as ClickBody).timeStamp - (b.payload as ClickBody).timeStamp)
        const bodies = inOrder.map((item) => item.payload as ClickBody & { metadata: Record<string, unknown> })
        expect(bodies.map((b) => ({ rule: b.metadata["rule"], rules: b.metadata["rules"] ?? [b.metadata["rule"]], team: b.metadata["team"], source: b.metadata["source"] })))
          .toEqual(autos.map((a) => ({ rule: a.rule, rules: a.rules, team: a.team, source: "auto" })))
        const entryAt = new Map(expected.map((e, i) => [e.step, i]))
        autos.forEach((auto, i) => {
          const body = bodies[i]!
          const window = defaultRuleWindow(auto.rule as "score", "basketball")
          expect(body.timeStamp - body.startTime!).toBe(window.beforeSeconds * 1000)
          expect(body.endTime! - body.timeStamp).toBe(window.afterSeconds * 1000)
          // Held for a press that would replace it.
          expect(inOrder[i]!.notBefore - inOrder[i]!.createdAt).toBe(mergeMs)
          if (auto.rule === "period-end") {
            expect(body.timeStamp, "stamped at the 0.0 frame").toBe(written[auto.step]![0])
          } else {
            const entry = entries[entryAt.get(auto.step)!]!
            expect(body.timeStamp, `${auto.rules.join("+")} at step ${auto.step}: stamped at its entry`).toBe(entry.timeStamp)
            expect(body.score).toEqual(entry)
          }
        })
      }))
  }
})
