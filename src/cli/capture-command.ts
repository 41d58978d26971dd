import { bridgeVersion } from "../domain/version.ts"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { capture } from "../commissioning/capture.ts"
import { CommissioningFailure, exitUsage } from "../commissioning/commissioning-failure.ts"
import { networkLinkFlags, sourceFromFlags } from "../commissioning/link-flags.ts"
import { eightNoneOne, type SerialFraming } from "../commissioning/serial-framing.ts"
import type { ConsoleSource } from "../commissioning/source.ts"
import { withPrintableConsole } from "./printable.ts"

const defaultBaud = 19200

/** The line's framing with --port, as sniff prints it for a console that is not 8N1 (Colorado: --parity even). */
const framingFlags = {
  dataBits: Flag.ChoiceWithValue("data-bits", [["8", 8], ["7", 7]] as const).pipe(Flag.withDescription("Data bits with --port (default 8)"), Flag.optional),
  parity: Flag.Literals("parity", ["none", "even", "odd"]).pipe(Flag.withDescription("Parity with --port (default none)"), Flag.optional),
  stopBits: Flag.ChoiceWithValue("stop-bits", [["1", 1], ["2", 2]] as const).pipe(Flag.withDescription("Stop bits with --port (default 1)"), Flag.optional)
}

/** The framing the flags ask for, 8N1 where they are left out; `given` when any was. */
const framingFromFlags = (input: { readonly [K in keyof SerialFraming]: Option.Option<SerialFraming[K]> }) => ({
  given: Option.isSome(input.dataBits) || Option.isSome(input.parity) || Option.isSome(input.stopBits),
  framing: {
    dataBits: Option.getOrElse(input.dataBits, () => eightNoneOne.dataBits),
    parity: Option.getOrElse(input.parity, () => eightNoneOne.parity),
    stopBits: Option.getOrElse(input.stopBits, () => eightNoneOne.stopBits)
  } satisfies SerialFraming
})

/**
 * `scorebridge capture`: records a controller's raw bytes with receive times, from a serial
 * port or a network link. Exit 0 after --seconds, 130 when stopped by Ctrl-C or SIGTERM (the
 * capture is complete either way), 1 when the port went away or the console disconnected,
 * 2 bad flags, a port that cannot be opened, bound or connected, or an existing file.
 */
export const captureCommand = Command.make(
  "capture",
  {
    port: Flag.String("port").pipe(Flag.withDescription("Serial device the controller is wired to"), Flag.optional),
    ...networkLinkFlags,
    out: Flag.String("out").pipe(Flag.withDescription("New capture file (NDJSON: {\"t\":<ms>,\"b\":\"<base64>\"} per chunk); never overwritten")),
    baud: Flag.Int("baud").pipe(Flag.withDescription(`Line speed with --port (sniff tells it; default ${defaultBaud})`), Flag.optional),
    ...framingFlags,
    seconds: Flag.Int("seconds").pipe(
      Flag.withDescription("Stop after this long (default: until Ctrl-C); over --tcp-listen and --udp-listen it counts from the console's first connection or datagram"),
      Flag.optional
    ),
    progressSeconds: Flag.Int("progress-seconds").pipe(Flag.withDescription("How often to print the running byte count"), Flag.withDefault(5))
  },
  Effect.fn("captureCommand")(function*(input) {
    const seconds = Option.getOrUndefined(input.seconds)
    const baud = Option.getOrUndefined(input.baud)
    if ((baud !== undefined && baud <= 0) || (seconds !== undefined && seconds < 1) || input.progressSeconds < 1) {
      return yield* new CommissioningFailure({ message: "--baud, --seconds and --progress-seconds must be positive whole numbers", exitCode: exitUsage })
    }
    const link = yield* sourceFromFlags(input)
    const framing = framingFromFlags(input)
    if (link._tag !== "serial" && baud !== undefined) {
      return yield* new CommissioningFailure({ message: "--baud goes with --port only: over the network the console or converter sets the line speed", exitCode: exitUsage })
    }
    if (link._tag !== "serial" && framing.given) {
      return yield* new CommissioningFailure({
        message: "--data-bits, --parity and --stop-bits go with --port only: over the network the console or converter sets the line's framing",
        exitCode: exitUsage
      })
    }
    const source: ConsoleSource = link._tag === "serial" ? { _tag: "serial", path: link.path, baudRate: baud ?? defaultBaud, ...framing.framing } : link
    yield* capture({ source, out: input.out, seconds, progressSeconds: input.progressSeconds })
  }, Effect.tapError((error) => Console.error(error.message)), withPrintableConsole)
).pipe(
  Command.withDescription("Record a controller's raw bytes with receive times (serial, TCP or UDP), for scorebridge replay and for support"),
  Command.withExamples([
    {
      command: "scorebridge capture --port /dev/serial/by-id/usb-FTDI_…-port0 --out court1-$(date +%F).ndjson --seconds 600",
      description: "Ten minutes of a live game"
    },
    {
      command: "scorebridge capture --port /dev/serial/by-id/usb-FTDI_…-port0 --baud 9600 --parity even --out pool-$(date +%F).ndjson --seconds 600",
      description: "Ten minutes of a Colorado Time Systems console (9600 8E1, as sniff prints it)"
    },
    {
      command: "scorebridge capture --tcp-listen 0.0.0.0:4001 --out court2-$(date +%F).ndjson --seconds 600",
      description: "Ten minutes from a console that connects to this machine (Bodet network output)"
    }
  ])
)

/** Runs `capture` with the given arguments (without the leading `capture`), as `scorebridge capture …` would. */
export const runCapture = Command.runWith(captureCommand, { version: bridgeVersion })
