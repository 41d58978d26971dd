import { bridgeVersion } from "../domain/version.ts"
import { existsSync } from "node:fs"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { protocols } from "../../adapters/registry.ts"
import { CommissioningFailure, exitUsage } from "../commissioning/commissioning-failure.ts"
import { isLearnable, learnableProtocols } from "../commissioning/layout-frames.ts"
import { learnLive, learnOffline } from "../commissioning/layout-learn.ts"
import { networkLinkFlags, sourceFromFlags } from "../commissioning/link-flags.ts"
import { viaNetwork, viaSerial } from "../commissioning/sniff-report.ts"
import type { ConsoleSource } from "../commissioning/source.ts"
import { withPrintableConsole } from "./printable.ts"

const usage = (message: string) => new CommissioningFailure({ message, exitCode: exitUsage })

/**
 * `scorebridge learn`: finds where an undocumented console puts home, guest, period and clock,
 * from moments the technician notes off the board, live or from a capture, and prints the
 * options block that reads them. Exit 0 every noted field found once, 1 something ambiguous or
 * not found (the report says what would settle it), 2 bad flags or a source that cannot be opened.
 */
export const learnCommand = Command.make(
  "learn",
  {
    protocol: Flag.String("protocol").pipe(Flag.withDescription(`The console's protocol (required): ${learnableProtocols.join(", ")}`), Flag.optional),
    port: Flag.String("port").pipe(Flag.withDescription("Serial device the console is wired to (live)"), Flag.optional),
    ...networkLinkFlags,
    baud: Flag.Int("baud").pipe(Flag.withDescription("Line speed with --port (default: the protocol's; sniff tells it)"), Flag.optional),
    capture: Flag.String("capture").pipe(
      Flag.withDescription("Learn from a recorded .ndjson capture instead of a live console (with --at)"),
      Flag.optional
    ),
    at: Flag.String("at").pipe(
      Flag.withDescription("With --capture, repeatable: \"SECONDS: home 3 guest 5 period 2 clock 7:56\", seconds from the capture's first chunk"),
      Flag.atLeast(0)
    ),
    out: Flag.String("out").pipe(
      Flag.withDescription("Live: also keep the recording in this new .ndjson capture (for support, or to learn again with --capture); Ctrl-C keeps it too"),
      Flag.optional
    )
  },
  Effect.fn("learnCommand")(function*(input) {
    if (Option.isNone(input.protocol)) return yield* usage(`which protocol? give --protocol, one of ${learnableProtocols.join(", ")} (scorebridge sniff names it)`)
    const protocol = input.protocol.value
    if (!isLearnable(protocol)) {
      const why = Object.hasOwn(protocols, protocol) ? `${protocol} has no fixed byte positions to learn` : `unknown protocol "${protocol}"`
      return yield* usage(`${why}: learn reads ${learnableProtocols.join(", ")}`)
    }
    const baud = Option.getOrUndefined(input.baud)
    if (baud !== undefined && baud <= 0) return yield* usage("--baud must be a positive whole number")
    if (Option.isSome(input.capture)) {
      const live = [input.port, input.tcpListen, input.tcpConnect, input.udpListen, input.out].some(Option.isSome) || baud !== undefined
      if (live) return yield* usage("--capture learns from a file: drop --port, --baud, --tcp-listen, --tcp-connect, --udp-listen and --out")
      process.exitCode = yield* learnOffline({ protocol, capture: input.capture.value, at: input.at })
      return
    }
    if (input.at.length > 0) return yield* usage("--at goes with --capture; live, type each moment on the keyboard as the board shows it")
    const link = yield* sourceFromFlags(input).pipe(
      Effect.mapError((failure) => usage(`${failure.message}, or --capture FILE.ndjson`))
    )
    if (link._tag !== "serial" && baud !== undefined) return yield* usage("--baud goes with --port only: over the network the console or converter sets the line speed")
    const out = Option.getOrUndefined(input.out)
    if (out !== undefined && existsSync(out)) return yield* usage(`${out} already exists: choose another --out, or delete it first`)
    const source: ConsoleSource = link._tag === "serial"
      ? { ...protocols[protocol]!.serialDefaults, _tag: "serial", path: link.path, ...(baud === undefined ? {} : { baudRate: baud }) }
      : link
    const via = source._tag === "serial" ? viaSerial(source) : viaNetwork(source, "")
    process.exitCode = yield* learnLive({ protocol, source, out, captureHint: `run again with --out court.ndjson, or record one: ${via.capture}` })
  }, Effect.tapError((error) => Console.error(error.message)), withPrintableConsole)
).pipe(
  Command.withDescription(
    "Find where an undocumented console puts the score, period and clock: note what the board shows at two or three moments, get the options block that reads it"
  ),
  Command.withExamples([
    {
      command: "scorebridge learn --protocol fairplay-mp70 --port /dev/serial/by-id/usb-FTDI_…-port0",
      description: "Live: type e.g. `home 3 guest 5 period 2 clock 7:56` at each moment, an empty line to finish"
    },
    {
      command: "scorebridge learn --protocol stramatel-452m --capture court1.ndjson --at \"12: home 3 guest 5 period 1\" --at \"95.5: home 4 guest 5 period 2\"",
      description: "From a capture, with what the board showed 12 s and 95.5 s after its start"
    }
  ])
)

/** Runs `learn` with the given arguments (without the leading `learn`), as `scorebridge learn …` would. */
export const runLearn = Command.runWith(learnCommand, { version: bridgeVersion })
