import { afterEach, describe, expect, it } from "vitest"
import { defaultRuleWindow } from "../../src/domain/rule-catalog.ts"
import { stramatelTennis } from "../scoreboard/consoles/stramatel.ts"
import { resources, type WriteTimes } from "../scoreboard/harness.ts"
import { expectedEntries, type Step } from "../scoreboard/matches/match.ts"
import { tennisEntry, tennisSet, type TennisSetBoard } from "../scoreboard/matches/tennis-set.ts"
import { startPtyBridge } from "../scoreboard/pty-match.ts"
import { acceptedScores, expectAutoClicks, expectScores, outboxByKind, playSteps, untilClicksAndScoresIn } from "./support.ts"

/**
 * A tennis set to 6–6 and a tie-break from a Stramatel console over a pty, the daemon in this
 * process: every game home wins, the set, each tie-break point and each new set point make one
 * click each, stamped at their entries; games away wins make none.
 */

type Side = "home" | "away"
const sides = ["home", "away"] as const
const index = (side: Side) => (side === "home" ? 0 : 1)

const rules = [
  { rule: "set-won", beforeSeconds: 30, afterSeconds: 20 },
  { rule: "game-won", team: "home" },
  { rule: "tiebreak-point" },
  { rule: "set-point" }
] as const

const points: Readonly<Record<string, number>> = { "0": 0, "15": 1, "30": 2, "40": 3, "AD": 4 }
const pointsOf = (b: TennisSetBoard) => b.points.map((p) => (b.tieBreak ? Number(p) : points[p]!))
const gamesOf = (b: TennisSetBoard) => [0, 1].map((t) => b.sets.reduce((n, set) => n + set[t]!, 0))

/** The one side whose count went up (the other's did not); undefined otherwise. */
const upOf = (before: ReadonlyArray<number>, after: ReadonlyArray<number>): Side | undefined => {
  const up = sides.filter((s) => after[index(s)]! > before[index(s)]!)
  const down = sides.filter((s) => after[index(s)]! < before[index(s)]!)
  return up.length === 1 && down.length === 0 ? up[0] : undefined
}

const gameWinner = (before: TennisSetBoard, after: TennisSetBoard) => upOf(gamesOf(before), gamesOf(after))

const pointWinner = (before: TennisSetBoard, after: TennisSetBoard): Side | undefined => {
  const game = gameWinner(before, after)
  if (game !== undefined) return game
  const up = upOf(pointsOf(before), pointsOf(after))
  if (up !== undefined) return up
  // An advantage lost (AD–40 back to deuce): the point went to the other side.
  const lost = upOf(pointsOf(after), pointsOf(before))
  return lost === undefined ? undefined : lost === "home" ? "away" : "home"
}

/** The board moved to a new set: the finished one's winner has more games in it. */
const setWinner = (before: TennisSetBoard, after: TennisSetBoard): Side | undefined => {
  if (after.sets.length <= before.sets.length) return undefined
  const [h, a] = after.sets[before.sets.length - 1]!
  return h > a ? "home" : "away"
}

/** Whether `side` wins the set with the next point: a game point in a game that ends the set, or 6+ and ahead in the tie-break. */
const setPoint = (b: TennisSetBoard, side: Side): boolean => {
  const me = index(side)
  const them = 1 - me
  const p = pointsOf(b)
  const games = b.sets.at(-1)!
  if (b.tieBreak) return p[me]! + 1 >= 7 && p[me]! + 1 - p[them]! >= 2
  const gamePoint = p[me]! >= 3 && p[me]! > p[them]!
  const won = games[me]! + 1
  return gamePoint && ((won >= 6 && won - games[them]! >= 2) || won === 7)
}

interface ExpectedAuto {
  readonly step: number
  readonly rule: string
  readonly rules: ReadonlyArray<string>
  readonly team: Side
}

const oracle = (steps: ReadonlyArray<Step<TennisSetBoard>>, changes: ReadonlyArray<number>): Array<ExpectedAuto> => {
  const autos: Array<ExpectedAuto> = []
  for (let k = 1; k < changes.length; k++) {
    const before = steps[changes[k - 1]!]!.board
    const after = steps[changes[k]!]!.board
    const verdicts: Record<string, Side | undefined> = {
      "set-won": setWinner(before, after),
      "game-won": gameWinner(before, after) === "home" ? "home" : undefined,
      "tiebreak-point": before.tieBreak ? pointWinner(before, after) : undefined,
      "set-point": sides.find((s) => setPoint(after, s) && !setPoint(before, s))
    }
    const agreed = rules.map((r) => r.rule).filter((rule) => verdicts[rule] !== undefined)
    if (agreed.length > 0) autos.push({ step: changes[k]!, rule: agreed[0]!, rules: agreed, team: verdicts[agreed[0]!]! })
  }
  return autos
}

const windowOf = (rule: string) =>
  rule === "set-won" ? { beforeSeconds: 30, afterSeconds: 20 } : defaultRuleWindow(rule as "game-won", "tennis")

describe("auto-highlights of a tennis set with a tie-break (stramatel-452m over a pty)", () => {
  const res = resources()
  afterEach(() => res.release())

  it("games won by home, the set, tie-break points and new set points: each once, stamped at its entry", async () => {
    const steps = tennisSet(58)
    const entries = expectedEntries(steps, tennisEntry)
    const autos = oracle(steps, entries.map((e) => e.step))
    // The model exercises every rule: away's games make nothing, set points come up (for both sides), several rules agree at the end.
    expect(autos.filter((a) => a.rule === "game-won").length).toBeGreaterThanOrEqual(6)
    expect(autos.filter((a) => a.rules.includes("tiebreak-point")).length).toBeGreaterThanOrEqual(7)
    expect(new Set(autos.filter((a) => a.rules.includes("set-point")).map((a) => a.team))).toEqual(new Set(["home", "away"]))
    expect(autos.some((a) => a.rule === "set-point")).toBe(true)
    // A set point saved while the side keeps one (40–15 to 40–30): only a new one is a highlight.
    const changes = entries.map((e) => e.step)
    expect(changes.some((step, k) => k > 0 && sides.some((s) => setPoint(steps[step]!.board, s) && setPoint(steps[changes[k - 1]!]!.board, s)))).toBe(true)
    expect(autos.at(-1)).toMatchObject({ rule: "set-won", rules: ["set-won", "game-won", "tiebreak-point"], team: "home" })
    expect(autos.filter((a) => a.rule === "set-won")).toHaveLength(1)

    const console = stramatelTennis()
    const { bridge, writer } = await startPtyBridge(res, "tennis", console as never, { place: { autoHighlights: rules } })
    const written: WriteTimes = []
    await playSteps(steps, console, writer.write, written, { changeGapMs: 40, tickGapMs: 15 })
    await untilClicksAndScoresIn(bridge, autos.length)

    const scores = await acceptedScores(bridge)
    expectScores(scores, entries, written, bridge.eventKey)
    const entryAt = new Map(entries.map((e, i) => [e.step, i]))
    const clicks = await expectAutoClicks(bridge, autos)
    autos.forEach((auto, i) => {
      const click = clicks[i]!
      const entry = scores[entryAt.get(auto.step)!]!.body
      expect(click.timeStamp, `${auto.rules.join("+")} at step ${auto.step}: stamped at its entry`).toBe(entry.timeStamp)
      expect(click.score).toEqual(entry)
      const window = windowOf(auto.rule)
      expect([click.timeStamp - click.startTime, click.endTime - click.timeStamp], `${auto.rule} window`)
        .toEqual([window.beforeSeconds * 1000, window.afterSeconds * 1000])
    })
    expect(await outboxByKind(bridge), "outbox items by kind and state").toEqual({ "score/delivered": entries.length, "auto/delivered": autos.length })
  }, 60_000)
})
