/**
 * Hot-path figures for the outbox: time of one `append` (fsync included) and one `heads` on an
 * outbox already holding 10,000 items, once with all of them pending (a long outage) and once
 * with nearly all delivered (normal running).
 *
 *   node test/support/outbox-bench.ts
 */
import { Effect } from "effect"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "./whole-outbox.ts"
import { clickPayload } from "./outbox-payloads.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const places = ["court-1", "court-2", "court-3", "court-4", "court-5", "court-6"]
const kinds = ["score", "click", "undo"] as const
const payload = { timeStamp: 0, left: 3, right: 2, period: 2, scoreValue: { gameScores: [[6, 4], [3, 2]], pointScore: [30, 15] } } as const
// Each kind with a payload of its own (the outbox checks them): a tennis entry, a press with it, an undo.
const ofKind = (n: number) => {
  const kind = kinds[n % 3]!
  return kind === "score"
    ? { kind, payload }
    : kind === "click"
    ? { kind, payload: clickPayload(n, {}, { score: payload }) }
    : { kind, payload: { clickItemId: n } }
}

const microseconds = (start: bigint, runs: number) => Number(process.hrtime.bigint() - start) / 1_000 / runs

const scenario = (label: string, settle: boolean) =>
  Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    for (let n = 0; n < 10_000; n++) {
      const item = yield* outbox.append({ place: places[n % places.length]!, ...ofKind(n), createdAt: n })
      // Leave the newest few per lane pending, as in normal running.
      if (settle && n < 9_950) yield* outbox.markDelivered(item.id, { eventKey: "ev", key: `k${n}` })
    }
    const runs = 500
    let start = process.hrtime.bigint()
    for (let n = 0; n < runs; n++) {
      yield* outbox.append({ place: places[n % places.length]!, kind: "score", payload, createdAt: n })
    }
    const append = microseconds(start, runs)
    start = process.hrtime.bigint()
    let lanes = 0
    for (let n = 0; n < runs; n++) lanes = (yield* outbox.heads).length
    const heads = microseconds(start, runs)
    console.log(`${label}: append ${append.toFixed(0)} µs, heads ${heads.toFixed(0)} µs (${lanes} lanes)`)
  }).pipe(
    Effect.provide(Outbox.layer({ stateDirectory: tempDir("outbox-bench") }))
  )

await Effect.runPromise(Effect.andThen(scenario("10,000 pending", false), scenario("10,000 mostly delivered", true)))
