import { bridgeVersion } from "../domain/version.ts"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { parseAutoRules } from "../config/auto-highlights.ts"
import { captureExtension } from "../replay/capture-format.ts"
import { recordedChunks } from "../replay/recorded-chunks.ts"
import { recordLine, replay } from "../replay/replay.ts"
import { replayDecoder } from "../replay/replay-decoder.ts"
import { ReplayInputError } from "../replay/replay-input-error.ts"
import { withPrintableConsole } from "./printable.ts"

// Printing in batches keeps a long capture from costing one write per record.
const linesPerWrite = 500

/**
 * `scorebridge replay`: decodes a recorded capture and prints, as NDJSON, every
 * reading and every score entry the daemon would make from it, then a summary.
 * Input mistakes print one line on stderr and exit 2 (ReplayInputError).
 */
export const replayCommand = Command.make(
  "replay",
  {
    protocol: Flag.String("protocol").pipe(Flag.withDescription("Controller protocol of the capture (required)"), Flag.optional),
    sport: Flag.String("sport").pipe(Flag.withDescription("API sport code of the place (required)"), Flag.optional),
    options: Flag.String("options").pipe(
      Flag.withDescription("The protocol's options block as JSON, as in the place's scoreboard config"),
      Flag.optional
    ),
    settleMs: Flag.Int("settle-ms").pipe(
      Flag.withDescription("As the place's scoreboard.settleMs (default: the protocol's, 80 for daktronics-rtd; 0 = off)"),
      Flag.optional
    ),
    maxFrameBytes: Flag.Int("max-frame-bytes").pipe(Flag.withDescription("As the place's serial.maxFrameBytes"), Flag.optional),
    timestamps: Flag.String("timestamps").pipe(
      Flag.withDescription("Raw captures: a .times sidecar, one `<receivedAt ms> <byte count>` line per received chunk"),
      Flag.optional
    ),
    start: Flag.Int("start").pipe(Flag.withDescription("Raw captures without sidecar: time of the first chunk, ms (default 0)"), Flag.optional),
    chunkMs: Flag.Int("chunk-ms").pipe(Flag.withDescription("Raw captures without sidecar: ms between chunks (default 0)"), Flag.optional),
    chunkBytes: Flag.Int("chunk-bytes").pipe(Flag.withDescription("Raw captures without sidecar: bytes per chunk (default 64)"), Flag.optional),
    autoHighlights: Flag.String("auto-highlights").pipe(
      Flag.withDescription(
        "Auto-highlight rules as JSON, as a place's autoHighlights list, e.g. '[{\"rule\":\"score\",\"atLeast\":3},{\"rule\":\"lead-change\"}]' "
          + "or '[{\"rule\":\"finish\"}]' (swimming): prints a {\"type\":\"highlight\",…} line for each click they would make, "
          + "a finish's with \"finish\": {lane, place, time, event, heat}"
      ),
      Flag.optional
    ),
    file: Argument.String("file").pipe(
      Argument.withDescription("The capture: raw bytes, or a .ndjson capture with receive times ({\"t\":<ms>,\"b\":\"<base64>\"} per line)"),
      Argument.optional
    )
  },
  Effect.fn("replayCommand")(function*(input) {
    if (Option.isNone(input.file)) return yield* new ReplayInputError({ message: "which capture? give its path: replay --protocol P --sport S FILE" })
    const { decoder, sport, settleMs } = yield* Effect.fromResult(replayDecoder({
      protocol: Option.getOrUndefined(input.protocol),
      sport: Option.getOrUndefined(input.sport),
      options: Option.getOrUndefined(input.options),
      maxFrameBytes: Option.getOrUndefined(input.maxFrameBytes),
      settleMs: Option.getOrUndefined(input.settleMs)
    })).pipe(Effect.mapError((message) => new ReplayInputError({ message })))
    const rules = Option.isNone(input.autoHighlights)
      ? []
      : yield* Effect.fromResult(parseAutoRules(input.autoHighlights.value, sport)).pipe(
        Effect.mapError((message) => new ReplayInputError({ message: `--auto-highlights: ${message}` }))
      )
    const chunks = yield* recordedChunks(input.file.value, input)
    // Settling works on receive times; a raw capture timed by nothing would be one long burst.
    const untimed = !input.file.value.endsWith(captureExtension) && Option.isNone(input.timestamps) && Option.isNone(input.chunkMs)
    const settle = untimed && Option.isNone(input.settleMs) ? 0 : settleMs
    if (untimed && settleMs > 0 && settle === 0) {
      yield* Console.error(
        `scorebridge replay: ${input.file.value} has no receive times, so changes are not settled (the daemon holds each for ${settleMs} ms): `
          + `give --timestamps or --chunk-ms, or record with scorebridge capture`
      )
    }
    let batch: Array<string> = []
    for (const record of replay(decoder, sport, chunks, settle, rules)) {
      batch.push(recordLine(record))
      if (batch.length < linesPerWrite) continue
      yield* Console.log(batch.join("\n"))
      batch = []
    }
    if (batch.length > 0) yield* Console.log(batch.join("\n"))
  }, Effect.tapError((error) => Console.error(`scorebridge replay: ${error.message}`)), withPrintableConsole)
).pipe(
  Command.withDescription(
    "Decode a recorded capture and print each reading, score entry and (with --auto-highlights) auto-highlight the bridge would make, as NDJSON"
  ),
  Command.withExamples([{
    command: "scorebridge replay --protocol daktronics-rtd --sport football capture.bin",
    description: "Raw bytes: every reading and entry stamped 0 (see --start, --chunk-ms, --timestamps)"
  }, {
    command: "scorebridge replay --protocol colorado-cts --sport swimming --auto-highlights '[{\"rule\":\"finish\"}]' pool.ndjson",
    description: "A swim meet: one highlight line per finish, stamped at the touch, with its lane, place and time"
  }])
)

/** Runs `replay` with the given arguments (without the leading `replay`), as `scorebridge replay …` would. */
export const runReplay = Command.runWith(replayCommand, { version: bridgeVersion })
