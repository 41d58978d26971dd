import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { describe, expect, it } from "vitest"
import { Effect, Option } from "effect"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"

/**
 * Rows as the bridge wrote them before payloads had a Schema each (plain JSON of the same shape),
 * inserted with SQLite directly into a file the outbox made: this bridge reads every one typed.
 */
const previousRows = [
  // A press (src/clicks/click-body.ts), late, with its score, overlay and widened window.
  ["click", `{"timeStamp":1700000000500,"startTime":1699999950000,"endTime":1700000010500,"score":{"timeStamp":1700000000000,"left":3,"right":1,"period":2},` +
  `"overlays":[{"templateSource":"https://cdn.example/t.html","values":{"home":"3"},"position":{"horizontal":"left","vertical":"bottom"},"duration":4000}],` +
  `"metadata":{"clickId":"Qx1","team":"home","source":"court1-remote","button":"1","gesture":"single","pressedAfter":null}}`],
  // An auto-highlight (src/highlights/auto-click.ts) that several rules chose.
  ["click", `{"timeStamp":1700000001000,"startTime":1699999989000,"endTime":1700000005000,` +
  `"metadata":{"clickId":"Ay2","team":"away","source":"auto","rule":"set-won","rules":["set-won","match-won"]}}`],
  ["score", `{"timeStamp":1700000002000,"left":4,"right":1,"period":2}`],
  ["score", `{"timeStamp":1700000003000,"left":1,"right":0,"period":2,"scoreValue":{"gameScores":[[6,4],[1,0]],"pointScore":[2,1]}}`],
  ["score", `{"timeStamp":1700000004000,"scoreValue":{"gameScores":[[25,20],[3,5]]}}`],
  ["undo", `{"clickItemId":1}`]
] as const

describe("rows written by the previous bridge", () => {
  it("decode into typed items, their payloads exactly as stored", async () => {
    const stateDirectory = tempStateDirectory()
    await runWithOutbox(stateDirectory, () => Effect.void)
    const db = new DatabaseSync(path.join(stateDirectory, "outbox.sqlite"))
    try {
      const insert = db.prepare("INSERT INTO items (place, kind, payload, created_at, not_before) VALUES ('court-1', ?, ?, 1, 1)")
      for (const [kind, payload] of previousRows) insert.run(kind, payload)
    } finally {
      db.close()
    }
    const read = await runWithOutbox(stateDirectory, (outbox) =>
      Effect.all({
        recent: outbox.recent("court-1", 10),
        press: outbox.get(1),
        lastScore: outbox.lastOf("court-1", "score")
      }))
    expect(read.recent.map((item) => [item.kind, JSON.stringify(item.payload)])).toEqual([...previousRows].reverse())
    const press = Option.getOrThrow(read.press)
    // Typed: the compiler knows a click's metadata, the outbox checked it is there.
    expect(press.kind === "click" ? [press.payload.metadata.clickId, press.payload.metadata.pressedAfter] : undefined).toEqual(["Qx1", null])
    expect(Option.map(read.lastScore, (item) => item.payload.timeStamp)).toEqual(Option.some(1700000004000))
  })
})
