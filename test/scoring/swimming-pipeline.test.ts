import { rmSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema, Stream } from "effect"
import { TestClock } from "effect/testing"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import { type RaceScript, raceStream, receivedChunks } from "../../adapters/colorado-cts/console-model.ts"
import { protocols } from "../../adapters/registry.ts"
import { BridgeEvents } from "../../src/bus/bridge-events.ts"
import { LatestBoard } from "../../src/clicks/board-extras.ts"
import { defaultSettleMs } from "../../src/config/settle-window.ts"
import { Outbox, OutboxItems } from "../../src/delivery/outbox.ts"
import type { AutoRule } from "../../src/domain/auto-rule.ts"
import type { ReceivedChunk } from "../../src/domain/received.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { replay } from "../../src/replay/replay.ts"
import { runScoreboard } from "../../src/scoring/scoreboard-pipeline.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * A pool's score pipeline as the daemon runs it: the console model's bytes (a heat with the
 * previous heat's results shown before the start, provisional times, a lane switched off) through
 * the real colorado-cts decoder, the race tracker and the finish rule into the real outbox, on
 * virtual time. One click per finish, stamped at the model's touch, no score entry; `replay` of the
 * same bytes makes the same clicks.
 */

const epoch = 1_800_000_000_000

const heat: RaceScript = {
  event: 4,
  heat: 2,
  previous: { results: [1, 2, 3, 4, 5, 6].map((lane) => ({ lane, place: 7 - lane, timeMs: 31_000 + 250 * lane })) },
  lanes: [
    { lane: 1, finishMs: 12_340 },
    { lane: 2, finishMs: 10_870, provisional: true },
    { lane: 3, finishMs: 9_450 },
    { lane: 4, finishMs: 11_020, provisional: true },
    { lane: 5, off: true },
    { lane: 6, finishMs: 13_660 }
  ],
  preStartMs: 3_000,
  runOnMs: 1_500,
  afterMs: 1_000
}

const rules: ReadonlyArray<AutoRule> = [{ rule: "finish" }]

const decoderFor = () => {
  const protocol = protocols["colorado-cts"] as ProtocolDefinition<unknown>
  const options = Schema.decodeUnknownSync(protocol.optionsSchema)({})
  return { protocol, decoder: protocol.makeDecoder({ ...(options as object), sport: "swimming" }) }
}

/** The chunks through one place's pipeline, the virtual clock at each chunk's receive time; what the outbox holds after. */
const pipeline = (chunks: ReadonlyArray<ReceivedChunk>) =>
  Effect.gen(function*() {
    const stateDirectory = tempDir("swimming-pipeline")
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(stateDirectory, { recursive: true, force: true })))
    const services = yield* Layer.build(Layer.mergeAll(Outbox.layer({ stateDirectory }), ActiveEvents.layer, BridgeEvents.layer, LatestBoard.layer))
    const { protocol, decoder } = decoderFor()
    const timed = Stream.fromIterable(chunks).pipe(Stream.tap((chunk) => TestClock.setTime(chunk.receivedAt)))
    const autos = { rules, mergeMs: 5_000, overlayFor: () => ({}) }
    yield* runScoreboard("pool", "swimming", decoder, timed, defaultSettleMs(protocol), autos).pipe(Effect.provide(services))
    return (yield* Effect.provide(Effect.flatMap(Effect.service(OutboxItems), (outbox) => outbox.recent("pool", 1_000)), services)).toReversed()
  })

describe("a pool's pipeline with the finish rule", () => {
  for (const seed of [1, 2, 3]) {
    it.effect(`heat of seed ${seed}: one click per finish, stamped at the touch, with the settled values; no score entry; replay agrees`, () =>
      Effect.gen(function*() {
        const stream = raceStream(heat, { seed })
        // Stamped in whole ms, as the transport stamps them (Date.now()).
        const chunks = receivedChunks(stream, epoch).map((chunk) => ({ ...chunk, receivedAt: Math.round(chunk.receivedAt) }))
        const items = yield* pipeline(chunks)
        expect(items.filter((item) => item.kind !== "click")).toEqual([])
        const clicks = items.flatMap((item) => (item.kind === "click" ? [item.payload] : []))
        const truth = [...stream.finishes].sort((a, b) => a.touchMs - b.touchMs)
        expect(clicks.map((body) => body.metadata.finish)).toEqual(truth.map(({ lane, place, time, event, heat: h }) => ({ lane, place, time, event, heat: h })))
        clicks.forEach((body, i) => {
          expect(Math.abs(body.timeStamp - (epoch + truth[i]!.touchMs)), `lane ${truth[i]!.lane}`).toBeLessThanOrEqual(150)
          expect(body.score).toBeUndefined()
        })
        const { decoder } = decoderFor()
        const replayed = [...replay(decoder, "swimming", chunks, 0, rules)]
        const highlights = replayed.flatMap((record) => (record.type === "highlight" ? [record] : []))
        expect(highlights.map((h) => ({ at: h.at, startTime: h.startTime, endTime: h.endTime, finish: h.finish })))
          .toEqual(clicks.map((body) => ({ at: body.timeStamp, startTime: body.startTime, endTime: body.endTime, finish: body.metadata.finish })))
        expect(replayed.at(-1)).toMatchObject({ type: "summary", entries: 0, highlights: truth.length, finishes: truth.length })
      }))
  }
})
