import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { timelineVersion } from "../../src/timeline/timeline-version.ts"
import { tempStateDirectory } from "../delivery/outbox-support.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

const event = { eventKey: "ev-1", homeTeam: "Red", awayTeam: "Blue" }

/** Each place's tag as the status snapshot computes it, from the outbox on disk. */
const versions = Effect.gen(function*() {
  const outbox = yield* wholeOutbox
  const counts = yield* outbox.counts
  const settled = yield* outbox.settledFollowUps
  const of = (place: string) => timelineVersion(counts.filter((c) => c.place === place), event, settled.find((s) => s.place === place))
  return { court1: of("court-1"), court2: of("court-2"), lanes: JSON.stringify(counts) }
})

const acceptedClick = (place: string, at: number, momentKey: string) =>
  Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    const item = yield* outbox.append({ place, kind: "click", payload: clickPayload(at), createdAt: at })
    yield* outbox.markDelivered(item.id, { eventKey: "ev-1", momentKey })
    return item
  })

describe("the timeline's version", () => {
  it.effect("moves when a follow-up of the place settles, though no lane count does; the other place's stays", () =>
    Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const first = yield* acceptedClick("court-1", 1_000, "m1")
      const second = yield* acceptedClick("court-1", 2_000, "m2")
      yield* acceptedClick("court-2", 3_000, "m3")
      const before = yield* versions

      yield* outbox.followUpRead(first.id, 50_000)
      assert.deepStrictEqual(yield* versions, before, "a read that found nothing changes nothing drawn")

      assert.isTrue(yield* outbox.settleFollowUp(first.id, "clip-ready", { videoURL: "https://media.example.com/1.mp4" }, { read: true }))
      const ready = yield* versions
      assert.strictEqual(ready.lanes, before.lanes)
      assert.notStrictEqual(ready.court1, before.court1)
      assert.strictEqual(ready.court2, before.court2)

      assert.isTrue(yield* outbox.settleFollowUp(second.id, "no-clip", { reason: "camera off" }, { read: true }))
      const none = yield* versions
      assert.strictEqual(none.lanes, before.lanes)
      assert.notStrictEqual(none.court1, ready.court1)
      assert.notStrictEqual(none.court1, before.court1)
      assert.strictEqual(none.court2, before.court2)
    }).pipe(Effect.provide(Outbox.layer({ stateDirectory: tempStateDirectory(), followUps: { firstReadAfterMs: 10_000 } }))))
})
