import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { capture } from "../commissioning/capture.ts"
import { CommissioningFailure, exitUsage } from "../commissioning/commissioning-failure.ts"

/**
 * `scorebridge capture`: records a controller's raw bytes with receive times.
 * Exit 0 after --seconds, 130 when stopped by Ctrl-C or SIGTERM (the capture
 * is complete either way), 1 when the port went away, 2 bad flags, port or file.
 */
export const captureCommand = Command.make(
  "capture",
  {
    port: Flag.String("port").pipe(Flag.withDescription("Serial device the controller is wired to")),
    out: Flag.String("out").pipe(Flag.withDescription("New capture file (NDJSON: {\"t\":<ms>,\"b\":\"<base64>\"} per chunk); never overwritten")),
    baud: Flag.Int("baud").pipe(Flag.withDescription("Line speed (sniff tells it)"), Flag.withDefault(19200)),
    seconds: Flag.Int("seconds").pipe(Flag.withDescription("Stop after this long (default: until Ctrl-C)"), Flag.optional),
    progressSeconds: Flag.Int("progress-seconds").pipe(Flag.withDescription("How often to print the running byte count"), Flag.withDefault(5))
  },
  Effect.fn("captureCommand")(function*(input) {
    const seconds = Option.getOrUndefined(input.seconds)
    if (input.baud <= 0 || (seconds !== undefined && seconds < 1) || input.progressSeconds < 1) {
      return yield* new CommissioningFailure({ message: "--baud, --seconds and --progress-seconds must be positive whole numbers", exitCode: exitUsage })
    }
    yield* capture({ path: input.port, out: input.out, baudRate: input.baud, seconds, progressSeconds: input.progressSeconds })
  }, Effect.tapError((error) => Console.error(error.message)))
).pipe(
  Command.withDescription("Record a controller's raw bytes with receive times, for scorebridge replay and for support"),
  Command.withExamples([{
    command: "scorebridge capture --port /dev/serial/by-id/usb-FTDI_…-port0 --out court1-$(date +%F).ndjson --seconds 600",
    description: "Ten minutes of a live game"
  }])
)

/** Runs `capture` with the given arguments (without the leading `capture`), as `scorebridge capture …` would. */
export const runCapture = Command.runWith(captureCommand, { version: "0.1.0" })
