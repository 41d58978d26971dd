import { rmSync } from "node:fs"
import { Effect, Fiber, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { expect } from "vitest"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import { protocols } from "../../adapters/registry.ts"
import { LatestBoard } from "../../src/clicks/board-extras.ts"
import { Outbox, OutboxItems } from "../../src/delivery/outbox.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import type { AutoHighlightSettings } from "../../src/highlights/auto-highlighter.ts"
import { runScoreboard } from "../../src/scoring/scoreboard-pipeline.ts"
import { defaultSettleMs } from "../../src/config/settle-window.ts"
import { BridgeEvents } from "../../src/bus/bridge-events.ts"
import type { SimulatedConsole } from "../scoreboard/consoles/console.ts"
import type { WriteTimes } from "../scoreboard/harness.ts"
import { expectedEntries, type Step } from "../scoreboard/matches/match.ts"
import type { PlayClock } from "../scoreboard/play-clock.ts"
import { virtualLine } from "./virtual-line.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/** How a console model plays a scene: on `clock`, through `write`, recording each step's write times. */
export type Player = (clock: PlayClock, write: (bytes: Uint8Array | string) => Promise<void>, written: WriteTimes) => Promise<unknown>

/**
 * One place's score pipeline (decoder → settling → outbox) fed a console model on virtual time,
 * with the real decoder of the console's protocol (its default settle window) and the real outbox
 * in a temporary directory. Checks that the outbox holds exactly the entries the scene's boards
 * make, in order, each stamped at a write of its own step (with `exactStamps`, at the step's first).
 */
export const pipelineScene = <B, E>(options: {
  readonly console: Pick<SimulatedConsole<B>, "protocol" | "options">
  readonly sport: string
  readonly steps: ReadonlyArray<Step<B>>
  readonly entryOf: (board: B) => E
  readonly play: Player
  readonly exactStamps?: boolean
  /** The place's auto-highlight rules: their clicks are stored beside the entries. */
  readonly autos?: AutoHighlightSettings
}) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(1_000_000)
    const stateDirectory = tempDir("pipeline")
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(stateDirectory, { recursive: true, force: true })))
    const services = yield* Layer.build(Layer.mergeAll(Outbox.layer({ stateDirectory }), ActiveEvents.layer, BridgeEvents.layer, LatestBoard.layer))
    const protocol = protocols[options.console.protocol] as ProtocolDefinition<unknown>
    const decoded = Schema.decodeUnknownSync(protocol.optionsSchema)(options.console.options)
    const decoder = protocol.makeDecoder({ ...(decoded as object), sport: options.sport })
    const line = yield* virtualLine
    const pipeline = yield* Effect.forkChild(
      runScoreboard("court-1", options.sport, decoder, line.chunks, defaultSettleMs(protocol), options.autos).pipe(Effect.provide(services))
    )
    const written: WriteTimes = []
    yield* Effect.promise(() => options.play(line.clock, line.write, written))
    // Past every hold: ten settle windows at most.
    yield* line.wait(defaultSettleMs(protocol) * 11)
    const stored = yield* Effect.provide(Effect.flatMap(Effect.service(OutboxItems), (outbox) => outbox.recent("court-1", 5_000)), services)
    yield* Fiber.interrupt(pipeline)

    const entries = stored.filter((item) => item.kind === "score").reverse().map((item) => item.payload as { timeStamp: number })
    const expected = expectedEntries(options.steps, options.entryOf)
    expect(entries.map(({ timeStamp: _t, ...entry }) => entry)).toEqual(expected.map((e) => e.entry))
    // Stamped when a read of the change's own bytes arrived (the one that brought the first byte of
    // its first score-changing frame), to the millisecond: never a read of an earlier change, never later.
    expect(entries.map((e, i) => (written[expected[i]!.step] ?? []).includes(e.timeStamp))).toEqual(entries.map(() => true))
    if (options.exactStamps === true) expect(entries.map((e) => e.timeStamp)).toEqual(expected.map((e) => written[e.step]![0]))
    const clicks = stored.filter((item) => item.kind === "click").reverse()
    return { expected, written, entries, clicks }
  })
