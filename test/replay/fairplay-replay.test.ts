import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { concat } from "../../adapters/shared/seeded-random.ts"
import type { ReplayRecord } from "../../src/replay/replay.ts"
import { fairplayConsole } from "../scoreboard/consoles/fairplay.ts"
import { hockeyEntry, hockeyGame } from "../scoreboard/matches/hockey-game.ts"
import { expectedEntries } from "../scoreboard/matches/match.ts"
import { runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const scratch = tempDir("fairplay-replay")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const replay = (...args: ReadonlyArray<string>) => runScorebridge("replay", args)

const entriesOf = (stdout: string) =>
  stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as ReplayRecord).flatMap((r) => {
    if (r.type !== "entry") return []
    const { timeStamp: _t, ...entry } = r.entry as unknown as Record<string, unknown>
    return [entry]
  })

describe("scorebridge replay --protocol fairplay-mp70 (a real process)", () => {
  it("prints one entry per real change of a rink console's stream, with the period its C packets showed", async () => {
    const steps = hockeyGame(90)
    const console = fairplayConsole()
    // What a `cat` of the console's RS-232 records: its bytes, no receive times.
    const file = join(scratch, "rink.bin")
    writeFileSync(file, concat(...steps.map((step) => console.encode(step.board) as Uint8Array)))

    const run = await replay("--protocol", "fairplay-mp70", "--sport", "hockey", file)
    expect(run.code, run.stderr).toBe(0)
    const expected = expectedEntries(steps, hockeyEntry).map((e) => e.entry)
    expect(entriesOf(run.stdout)).toEqual(expected)
    expect(expected.map((e) => e.period)).toEqual(expect.arrayContaining([1, 2, 3, 4]))

    // Read as the 80-byte ProLine layout, the same bytes are bad packets only: no entry at all.
    const asProline = await replay("--protocol", "fairplay-mp70", "--sport", "hockey", "--options", "{\"variant\":\"proline\"}", file)
    expect(asProline.code, asProline.stderr).toBe(0)
    expect(entriesOf(asProline.stdout)).toEqual([])
  })
})
