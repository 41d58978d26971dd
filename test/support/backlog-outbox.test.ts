import { rmSync } from "node:fs"
import { Effect } from "effect"
import { afterEach, expect, it } from "vitest"
import { checkScoreEntry } from "../../src/delivery/item-payloads.ts"
import { writeBacklogOutbox } from "../../scripts/support/backlog-outbox.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { outboxStates } from "./outbox-file.ts"
import { runWithOutbox } from "../delivery/outbox-support.ts"

const dirs: Array<string> = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const places = Array.from({ length: 8 }, (_, i) => ({
  key: `court-${i + 1}`,
  pastEventKeys: [`ev-${i + 1}-sat`, `ev-${i + 1}-sun-am`, `ev-${i + 1}-sun-pm`]
}))
const from = Date.UTC(2026, 0, 2, 18, 0)
const to = Date.UTC(2026, 0, 5, 8, 0)

it("writes a weekend's 40,000-item backlog in a few seconds, and the daemon's outbox reads it lane by lane in capture order", async () => {
  const stateDirectory = tempDir("backlog-outbox")
  dirs.push(stateDirectory)
  const startedAt = performance.now()
  const written = writeBacklogOutbox({ stateDirectory, places, pendingPerPlace: 5_000, from, to })
  const tookMs = performance.now() - startedAt
  expect(tookMs).toBeLessThan(5_000)
  expect(written.items).toBe(40_000)
  expect(written.bytes).toBeGreaterThan(1_000_000)
  expect(outboxStates(stateDirectory)).toEqual({ pending: 40_000 })

  const court3 = written.pending.get("court-3")!
  expect(court3).toHaveLength(5_000)
  // Capture order: ids and stamps both rise; the events follow one another, each its own score from 0–0.
  for (let i = 1; i < court3.length; i++) {
    expect(court3[i]!.id).toBeGreaterThan(court3[i - 1]!.id)
    expect(court3[i]!.entry.timeStamp).toBeGreaterThanOrEqual(court3[i - 1]!.entry.timeStamp)
  }
  expect(court3[0]!.entry.timeStamp).toBe(from)
  expect(court3.at(-1)!.entry.timeStamp).toBe(to)
  expect([...new Set(court3.map((p) => p.eventKey))]).toEqual(places[2]!.pastEventKeys)
  const firstOfSunday = court3.find((p) => p.eventKey === "ev-3-sun-am")!
  expect([firstOfSunday.entry.left, firstOfSunday.entry.right, firstOfSunday.entry.period]).toEqual([1, 0, 1])
  expect(court3.every((p) => checkScoreEntry(p.entry)._tag === "Success")).toBe(true)

  const read = await runWithOutbox(stateDirectory, (outbox) =>
    Effect.gen(function*() {
      return { lane: yield* outbox.pending("court-3", "score", 5_000), heads: yield* outbox.heads }
    }))
  expect(read.lane.map((item) => ({ id: item.id, eventKey: item.eventKey, entry: item.payload }))).toEqual(court3)
  expect(read.lane.every((item) => item.createdAt === item.payload.timeStamp)).toBe(true)
  expect(read.heads.map((item) => [item.place, item.id])).toEqual(places.map((p) => [p.key, written.pending.get(p.key)![0]!.id]))
})

it("writes the delivered history before the pending entries, settled 2 s after capture, in the first past event", async () => {
  const stateDirectory = tempDir("backlog-outbox")
  dirs.push(stateDirectory)
  const written = writeBacklogOutbox({ stateDirectory, places: places.slice(0, 2), pendingPerPlace: 10, deliveredPerPlace: 5, from, to: from + 14_000 })
  expect(written.items).toBe(30)
  expect(outboxStates(stateDirectory)).toEqual({ pending: 20, delivered: 10 })
  const recent = await runWithOutbox(stateDirectory, (outbox) => outbox.recent("court-1", 100))
  const delivered = recent.filter((item) => item.state === "delivered")
  expect(delivered.map((item) => item.createdAt).sort()).toEqual([0, 1, 2, 3, 4].map((k) => from + k * 1_000))
  expect(delivered.every((item) => item.settledAt === item.createdAt + 2_000 && item.eventKey === "ev-1-sat")).toBe(true)
  const pending = written.pending.get("court-1")!
  expect(pending.map((p) => p.entry.timeStamp)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((k) => from + k * 1_000))
  expect(pending.every((p) => p.id > Math.max(...delivered.map((item) => item.id)))).toBe(true)
})
