import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { captureLine } from "../../src/replay/capture-format.ts"
import { daktronicsBasketball, daktronicsTennis } from "../scoreboard/consoles/daktronics.ts"
import { basketballQuarter, type BasketballBoard } from "../scoreboard/matches/basketball-quarter.ts"
import type { Step } from "../scoreboard/matches/match.ts"
import { tennisSet } from "../scoreboard/matches/tennis-set.ts"
import { runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const scratch = tempDir("auto-replay")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const replay = (...args: ReadonlyArray<string>) => runScorebridge("replay", args)

const start = 1_800_000_000_000

/** A capture with receive times: one board per second, as the console wrote them. */
const capture = <B>(name: string, steps: ReadonlyArray<Step<B>>, encode: (board: B) => Uint8Array | string): string => {
  const file = join(scratch, `${name}.ndjson`)
  writeFileSync(file, steps.map((step, i) => {
    const bytes = encode(step.board)
    return captureLine({ receivedAt: start + 1000 * i, bytes: typeof bytes === "string" ? Buffer.from(bytes) : bytes })
  }).join(""))
  return file
}

interface Highlight {
  readonly type: string
  readonly at: number
  readonly rule: string
  readonly rules: ReadonlyArray<string>
  readonly team: string
  readonly startTime: number
  readonly endTime: number
}

const highlightsOf = (stdout: string): Array<Highlight> =>
  stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Highlight).filter((r) => r.type === "highlight")

/** Three-pointers, lead changes and the quarter's end, found from the boards alone (the test's own reading of the rules). */
const basketballOracle = (steps: ReadonlyArray<Step<BasketballBoard>>) => {
  const expected: Array<{ at: number; rules: Array<string>; team: string }> = []
  let leader: "home" | "away" | undefined
  steps.forEach(({ board }, i) => {
    const before = steps[i - 1]?.board
    if (before === undefined) return
    const rules: Array<string> = []
    let team = "none"
    const homeUp = board.home - before.home
    const awayUp = board.away - before.away
    if (homeUp >= 3 || awayUp >= 3) {
      rules.push("score")
      team = homeUp >= 3 ? "home" : "away"
    }
    const now = board.home > board.away ? "home" : board.away > board.home ? "away" : undefined
    if (now !== undefined && leader !== undefined && now !== leader) {
      rules.push("lead-change")
      if (team === "none") team = now
    }
    if (now !== undefined) leader = now
    if (board.clock === "0.0" && before.clock !== "0.0") {
      expected.push({ at: start + 1000 * i, rules: ["period-end"], team: "none" })
    }
    if (rules.length > 0) expected.push({ at: start + 1000 * i, rules, team })
  })
  return expected
}

describe("scorebridge replay --auto-highlights (a real process)", () => {
  it("a basketball quarter: one highlight line per three-pointer, lead change and the quarter's end, stamped at its entry", async () => {
    const steps = basketballQuarter(7)
    const console = daktronicsBasketball()
    const file = capture("basketball", steps, console.encode)
    const rules = JSON.stringify([{ rule: "score", atLeast: 3 }, { rule: "lead-change" }, { rule: "period-end" }])
    const run = await replay("--protocol", "daktronics-rtd", "--sport", "basketball", "--auto-highlights", rules, file)
    expect(run.code, run.stderr).toBe(0)
    const made = highlightsOf(run.stdout)
    const expected = basketballOracle(steps)
    expect(expected.length).toBeGreaterThan(4)
    expect(made.map((h) => ({ at: h.at, rules: h.rules, team: h.team }))).toEqual(expected)
    // Windows: the basketball defaults unless the rule gives its own.
    for (const h of made) {
      expect(h.at - h.startTime).toBe(h.rule === "period-end" ? 15_000 : 12_000)
      expect(h.endTime - h.at).toBe(h.rule === "period-end" ? 5_000 : 4_000)
    }
  })

  it("a tennis set with a tie-break: every game, the set and the tie-break's points, with the rule's own window", async () => {
    const steps = tennisSet(3)
    const console = daktronicsTennis()
    const file = capture("tennis", steps, console.encode)
    const rules = JSON.stringify([{ rule: "set-won", beforeSeconds: 30, afterSeconds: 20 }, { rule: "game-won" }, { rule: "tiebreak-point" }])
    const run = await replay("--protocol", "daktronics-rtd", "--sport", "tennis", "--auto-highlights", rules, file)
    expect(run.code, run.stderr).toBe(0)
    const made = highlightsOf(run.stdout)
    // 12 games to 6–6, then the tie-break's points, the last of which also wins the game and the set.
    const games = made.filter((h) => h.rules.includes("game-won"))
    expect(games).toHaveLength(13)
    const last = made.at(-1)!
    expect(last).toMatchObject({ rule: "set-won", rules: ["set-won", "game-won", "tiebreak-point"], team: "home" })
    expect(last.at - last.startTime).toBe(30_000)
    const tieBreakPoints = made.filter((h) => h.rules.includes("tiebreak-point"))
    // The last board of the tie-break, before its final point.
    const lastBoard = steps.filter((step) => step.board.tieBreak).at(-1)!.board
    expect(tieBreakPoints).toHaveLength(Number(lastBoard.points[0]) + Number(lastBoard.points[1]) + 1)
    expect(made.filter((h) => h.rule === "set-won")).toHaveLength(1)
  })

  it("a rule that does not fit the sport is refused in one line, exit 2", async () => {
    const file = capture("refused", basketballQuarter(1).slice(0, 3), daktronicsBasketball().encode)
    const run = await replay("--protocol", "daktronics-rtd", "--sport", "basketball", "--auto-highlights", '[{"rule":"game-won"}]', file)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--auto-highlights: .*game-won.*basketball/u)
    expect(run.stdout).toBe("")
  })
})
