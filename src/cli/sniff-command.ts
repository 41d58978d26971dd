import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { CommissioningFailure, exitUsage } from "../commissioning/commissioning-failure.ts"
import { portProblem } from "../commissioning/port-problem.ts"
import { defaultBaudRates, sniff } from "../commissioning/sniff.ts"

const exitNotRecognised = 1

const parseBaudRates = (text: string): ReadonlyArray<number> | undefined => {
  const rates = text.split(",").map((part) => Number(part.trim()))
  return rates.length > 0 && rates.every((rate) => Number.isInteger(rate) && rate > 0) ? rates : undefined
}

/**
 * `scorebridge sniff`: which protocol, speed and sport a controller speaks,
 * from its live bytes. Exit 0 recognised, 1 nothing recognised, 2 bad flags
 * or a port that cannot be opened.
 */
export const sniffCommand = Command.make(
  "sniff",
  {
    port: Flag.String("port").pipe(Flag.withDescription("Serial device the controller is wired to, e.g. /dev/serial/by-id/usb-FTDI_…")),
    seconds: Flag.Int("seconds").pipe(Flag.withDescription("Listening time at each speed"), Flag.withDefault(3)),
    bauds: Flag.String("bauds").pipe(
      Flag.withDescription(`Speeds to try, in order, comma-separated (default ${defaultBaudRates.join(",")})`),
      Flag.optional
    )
  },
  Effect.fn("sniffCommand")(function*(input) {
    const baudRates = Option.isSome(input.bauds) ? parseBaudRates(input.bauds.value) : defaultBaudRates
    if (baudRates === undefined) {
      return yield* new CommissioningFailure({ message: `--bauds must be speeds separated by commas, e.g. 19200,9600; got "${Option.getOrElse(input.bauds, () => "")}"`, exitCode: exitUsage })
    }
    if (input.seconds < 1) return yield* new CommissioningFailure({ message: "--seconds must be at least 1", exitCode: exitUsage })
    const recognised = yield* sniff({ path: input.port, baudRates, seconds: input.seconds }).pipe(
      Effect.mapError(portProblem)
    )
    if (!recognised) process.exitCode = exitNotRecognised
  }, Effect.tapError((error) => Console.error(error.message)))
).pipe(
  Command.withDescription("Listen to a controller at the common speeds and print which protocol, speed and sport it speaks, with the config to paste"),
  Command.withExamples([{ command: "scorebridge sniff --port /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10K5XYZ-if00-port0", description: "Identify the controller on this adapter" }])
)

/** Runs `sniff` with the given arguments (without the leading `sniff`), as `scorebridge sniff …` would. */
export const runSniff = Command.runWith(sniffCommand, { version: "0.1.0" })
