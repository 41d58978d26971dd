import { bridgeVersion } from "../domain/version.ts"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { CommissioningFailure, exitUsage } from "../commissioning/commissioning-failure.ts"
import { networkLinkFlags, sourceFromFlags } from "../commissioning/link-flags.ts"
import { defaultBaudRates, defaultWaitSeconds, sniff, sniffNetwork } from "../commissioning/sniff.ts"
import { withPrintableConsole } from "./printable.ts"

const exitNotRecognised = 1

const parseBaudRates = (text: string): ReadonlyArray<number> | undefined => {
  const rates = text.split(",").map((part) => Number(part.trim()))
  return rates.length > 0 && rates.every((rate) => Number.isInteger(rate) && rate > 0) ? rates : undefined
}

const usage = (message: string) => new CommissioningFailure({ message, exitCode: exitUsage })

/**
 * `scorebridge sniff`: which protocol, speed and sport a controller speaks,
 * from its live bytes, on a serial port or a network link. Exit 0 recognised,
 * 1 nothing recognised (or no console connected), 2 bad flags or a port that
 * cannot be opened, bound or connected.
 */
export const sniffCommand = Command.make(
  "sniff",
  {
    port: Flag.String("port").pipe(Flag.withDescription("Serial device the controller is wired to, e.g. /dev/serial/by-id/usb-FTDI_…"), Flag.optional),
    ...networkLinkFlags,
    seconds: Flag.Int("seconds").pipe(
      Flag.withDescription("Listening time at each speed; over the network, from the console's connection or first datagram"),
      Flag.withDefault(3)
    ),
    bauds: Flag.String("bauds").pipe(
      Flag.withDescription(
        `Speeds to try with --port, in order, comma-separated (default ${defaultBaudRates.join(",")}); at 8N1, then at each other framing a console sends at (Colorado: 8E1), each with its consoles' documented speeds too`
      ),
      Flag.optional
    ),
    waitSeconds: Flag.Int("wait-seconds").pipe(
      Flag.withDescription("With --tcp-listen or --udp-listen: how long to wait for the console to connect or send"),
      Flag.withDefault(defaultWaitSeconds)
    )
  },
  Effect.fn("sniffCommand")(function*(input) {
    if (input.seconds < 1 || input.waitSeconds < 1) return yield* usage("--seconds and --wait-seconds must be at least 1")
    const link = yield* sourceFromFlags(input)
    if (link._tag !== "serial") {
      if (Option.isSome(input.bauds)) return yield* usage("--bauds goes with --port only: over the network the console or converter sets the line speed")
      const recognised = yield* sniffNetwork({ link, seconds: input.seconds, waitSeconds: input.waitSeconds })
      if (!recognised) process.exitCode = exitNotRecognised
      return
    }
    const baudRates = Option.isSome(input.bauds) ? parseBaudRates(input.bauds.value) : defaultBaudRates
    if (baudRates === undefined) {
      return yield* usage(`--bauds must be speeds separated by commas, e.g. 19200,9600; got "${Option.getOrElse(input.bauds, () => "")}"`)
    }
    const recognised = yield* sniff({ path: link.path, baudRates, seconds: input.seconds })
    if (!recognised) process.exitCode = exitNotRecognised
  }, Effect.tapError((error) => Console.error(error.message)), withPrintableConsole)
).pipe(
  Command.withDescription(
    "Listen to a controller (at the common speeds on serial, once over the network) and print which protocol, speed and sport it speaks, with the config to paste"
  ),
  Command.withExamples([
    { command: "scorebridge sniff --port /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10K5XYZ-if00-port0", description: "Identify the controller on this adapter" },
    { command: "scorebridge sniff --tcp-listen 0.0.0.0:4001", description: "Identify a console that connects to this machine on port 4001 (Bodet network output)" },
    { command: "scorebridge sniff --tcp-connect 192.168.1.50:4001", description: "Identify the console behind a serial-to-Ethernet converter" }
  ])
)

/** Runs `sniff` with the given arguments (without the leading `sniff`), as `scorebridge sniff …` would. */
export const runSniff = Command.runWith(sniffCommand, { version: bridgeVersion })
