import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type RaceScript, raceStream, receivedChunks } from "../../adapters/colorado-cts/console-model.ts"
import { captureLine } from "../../src/replay/capture-format.ts"
import { runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * `scorebridge replay` of a pool's capture (the console model's bytes, as `capture` records them):
 * a highlight line per finish the rule selects, stamped at the touch, with the finish as the
 * board showed it; the summary counts every finish.
 */

const scratch = tempDir("finish-replay")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const epoch = 1_800_000_000_000

const heat: RaceScript = {
  event: 9,
  heat: 4,
  previous: { results: [2, 3, 4, 5].map((lane) => ({ lane, place: lane - 1, timeMs: 30_000 + 100 * lane })) },
  lanes: [
    { lane: 2, finishMs: 11_870, provisional: true },
    { lane: 3, finishMs: 10_450 },
    { lane: 4, finishMs: 12_020 },
    { lane: 5, finishMs: 10_990, provisional: true }
  ],
  preStartMs: 2_500,
  runOnMs: 1_500,
  afterMs: 1_000
}

const stream = raceStream(heat, { seed: 7 })
const truth = [...stream.finishes].sort((a, b) => a.place - b.place)

const capture = (): string => {
  const file = join(scratch, "pool.ndjson")
  writeFileSync(file, receivedChunks(stream, epoch).map((chunk) => captureLine({ ...chunk, receivedAt: Math.round(chunk.receivedAt) })).join(""))
  return file
}

const replay = (rules: string) => runScorebridge("replay", ["--protocol", "colorado-cts", "--sport", "swimming", "--auto-highlights", rules, capture()])

const records = (stdout: string) => stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)

describe("scorebridge replay of a pool (a real process)", () => {
  it("prints a highlight line per finish: stamped at the touch, the finish window, the finish as the board showed it; the summary counts them", async () => {
    const run = await replay('[{"rule":"finish"}]')
    expect(run.code, run.stderr).toBe(0)
    const lines = records(run.stdout)
    const highlights = lines.filter((line) => line["type"] === "highlight").sort((a, b) => (a["finish"] as { place: number }).place - (b["finish"] as { place: number }).place)
    expect(highlights.map(({ at: _at, startTime: _s, endTime: _e, ...rest }) => rest)).toEqual(truth.map((finish) => ({
      type: "highlight", rule: "finish", rules: ["finish"], team: "none",
      finish: { lane: finish.lane, place: finish.place, time: finish.time, event: 9, heat: 4 }
    })))
    highlights.forEach((line, i) => {
      const at = line["at"] as number
      expect(Math.abs(at - (epoch + truth[i]!.touchMs)), `lane ${truth[i]!.lane}`).toBeLessThanOrEqual(150)
      expect([line["startTime"], line["endTime"]]).toEqual([at - 10_000, at + 6_000])
    })
    expect(lines.at(-1)).toMatchObject({ type: "summary", entries: 0, highlights: truth.length, finishes: truth.length })
  })

  it("with places: 2, prints the first two places; the summary still counts every finish", async () => {
    const run = await replay('[{"rule":"finish","places":2}]')
    expect(run.code, run.stderr).toBe(0)
    const lines = records(run.stdout)
    expect(lines.filter((line) => line["type"] === "highlight").map((line) => (line["finish"] as { place: number }).place).sort()).toEqual([1, 2])
    expect(lines.at(-1)).toMatchObject({ highlights: 2, finishes: truth.length })
  })

  it("refuses a team on the finish rule in one line, exit 2", async () => {
    const run = await replay('[{"rule":"finish","team":"home"}]')
    expect(run.code).toBe(2)
    expect(run.stderr.trim()).toBe(
      "scorebridge replay: --auto-highlights: auto-highlight rules: [0].team: a finish is a swimmer's, about neither team, so no highlight would pass this filter — leave team out"
    )
    expect(run.stdout).toBe("")
  })
})
