import { Effect, Option } from "effect"
import { Flag } from "effect/cli"
import { hostPortProblem, parseHostPort } from "../domain/host-port.ts"
import { CommissioningFailure, exitUsage } from "./commissioning-failure.ts"
import type { NetworkLink } from "./source.ts"

/** The network links' flags, shared by sniff and capture; each the same HOST:PORT as the config's. */
export const networkLinkFlags = {
  tcpListen: Flag.String("tcp-listen").pipe(
    Flag.withDescription("Wait for the console to connect to this HOST:PORT (Bodet network output), e.g. 0.0.0.0:4001"),
    Flag.optional
  ),
  tcpConnect: Flag.String("tcp-connect").pipe(
    Flag.withDescription("Connect to the console, or to a serial-to-Ethernet converter in TCP server mode, at HOST:PORT"),
    Flag.optional
  ),
  udpListen: Flag.String("udp-listen").pipe(
    Flag.withDescription("Read the console's UDP datagrams sent to this HOST:PORT, e.g. 0.0.0.0:4002"),
    Flag.optional
  )
}

const linkFlags = [
  { flag: "--tcp-listen", tag: "tcp-listen", example: "0.0.0.0:4001" },
  { flag: "--tcp-connect", tag: "tcp-connect", example: "192.168.1.50:4001" },
  { flag: "--udp-listen", tag: "udp-listen", example: "0.0.0.0:4002" }
] as const

export interface LinkFlagValues {
  readonly port: Option.Option<string>
  readonly tcpListen: Option.Option<string>
  readonly tcpConnect: Option.Option<string>
  readonly udpListen: Option.Option<string>
}

const usage = (message: string) => new CommissioningFailure({ message, exitCode: exitUsage })

/**
 * Exactly one of --port, --tcp-listen, --tcp-connect, --udp-listen: the serial path, or the
 * network link with its checked HOST:PORT.
 */
export const sourceFromFlags = (values: LinkFlagValues): Effect.Effect<{ readonly _tag: "serial"; readonly path: string } | NetworkLink, CommissioningFailure> => {
  const network = [values.tcpListen, values.tcpConnect, values.udpListen]
  const given = [values.port, ...network].filter(Option.isSome).length
  if (given !== 1) {
    return Effect.fail(usage(`give exactly one of --port PATH (serial), --tcp-listen HOST:PORT (the console connects here), --tcp-connect HOST:PORT (connect to the console or converter) or --udp-listen HOST:PORT${given === 0 ? "" : `, not ${given}`}`))
  }
  if (Option.isSome(values.port)) return Effect.succeed({ _tag: "serial", path: values.port.value })
  const index = network.findIndex(Option.isSome)
  const { flag, tag, example } = linkFlags[index]!
  const text = Option.getOrThrow(network[index]!)
  const problem = hostPortProblem(text, example)
  if (problem !== undefined) return Effect.fail(usage(`${flag} ${problem}; got "${text}"`))
  return Effect.succeed({ _tag: tag, endpoint: parseHostPort(text) })
}
