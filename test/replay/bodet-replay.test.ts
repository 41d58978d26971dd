import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { frame, message11 } from "../../adapters/bodet-scorepad/encode.ts"
import { concat } from "../../adapters/shared/seeded-random.ts"
import type { ReplayRecord } from "../../src/replay/replay.ts"
import { bodetFloorball } from "../scoreboard/consoles/bodet.ts"
import { floorballEntry, floorballMatch } from "../scoreboard/matches/floorball-match.ts"
import { expectedEntries } from "../scoreboard/matches/match.ts"
import { runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const scratch = tempDir("bodet-replay")
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const replay = (...args: ReadonlyArray<string>) => runScorebridge("replay", args)

describe("scorebridge replay --protocol bodet-scorepad (a real process)", () => {
  it("prints one entry per score change of a raw capture, none for bad LRCs, cut frames or other messages", async () => {
    const steps = floorballMatch(5)
    const console = bodetFloorball()
    // What a `cat` of the console's network output records: its bytes, no receive times.
    const corrupt = Uint8Array.from(message11({ clock: "10:00", home: 99, away: 99, period: 2 }))
    corrupt[corrupt.length - 1]! ^= 0x01
    const cut = message11({ clock: "10:01", home: 98, away: 98, period: 2 }).subarray(0, 12)
    const timeout = frame("20", " 1 0")
    const capture = concat(
      ...steps.map((step) => console.encode(step.board) as Uint8Array),
      corrupt,
      cut,
      timeout,
      // The last board again after the junk: no new entry.
      console.encode(steps.at(-1)!.board) as Uint8Array
    )
    const file = join(scratch, "floorball.bin")
    writeFileSync(file, capture)

    const run = await replay("--protocol", "bodet-scorepad", "--sport", "unihockey", file)
    expect(run.code, run.stderr).toBe(0)
    const records = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as ReplayRecord & { entry?: Record<string, unknown> })
    const entries = records.filter((r) => r.type === "entry").map((r) => {
      const { timeStamp: _t, ...entry } = r.entry!
      return entry
    })
    expect(entries).toEqual(expectedEntries(steps, floorballEntry).map((e) => e.entry))
    // The match goes to extra time: 'E' is period 4 after floorball's three.
    expect(entries.at(-1)).toMatchObject({ period: 4 })
    const summary = records.find((r) => r.type === "summary") as unknown as { badFrames: number; entries: number }
    expect(summary).toMatchObject({ entries: entries.length })
    expect(summary.badFrames).toBeGreaterThanOrEqual(1)
  })
})
