import { Result, Schema } from "effect"
import type { ProtocolDefinition } from "../../../adapters/decoder.ts"
import { protocols } from "../../../adapters/registry.ts"
import type { ConsoleSource } from "../../commissioning/source.ts"
import { hostPortProblem, parseHostPort } from "../../domain/host-port.ts"
import { byIdPaths } from "./serial-ports.ts"

const Serial = Schema.Struct({
  path: Schema.String,
  baudRate: Schema.optionalKey(Schema.Int),
  dataBits: Schema.optionalKey(Schema.Literals([7, 8])),
  parity: Schema.optionalKey(Schema.Literals(["none", "even", "odd"])),
  stopBits: Schema.optionalKey(Schema.Literals([1, 2]))
})

const Link = Schema.Union([
  Schema.Struct({ serial: Serial }),
  Schema.Struct({ tcp: Schema.Union([Schema.Struct({ listen: Schema.String }), Schema.Struct({ connect: Schema.String })]) }),
  Schema.Struct({ udp: Schema.Struct({ listen: Schema.String }) })
])

const ListenBody = Schema.Struct({
  protocol: Schema.String,
  sport: Schema.String,
  options: Schema.optionalKey(Schema.Unknown),
  link: Link
})

/** A listening step, checked: the console's definition, its decoded options, and the link to open. */
export interface ListenRequest {
  readonly definition: ProtocolDefinition<unknown>
  readonly sport: string
  readonly options: object
  readonly source: ConsoleSource
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/gu, " ")

/** A host:port the technician typed, or the problem with it. */
const endpoint = (text: string, example: string) => {
  const problem = hostPortProblem(text, example)
  return problem === undefined ? Result.succeed(parseHostPort(text)) : Result.fail(`${text}: ${problem}`)
}

/**
 * The link to open. A serial line is one of the stable by-id names the page offered (never
 * /dev/ttyUSB0, whose number changes), opened with the court's speed and framing where it
 * gives them, else the console's (`serialDefaults`: Colorado sends 8E1), as the daemon opens it.
 */
const sourceOf = (link: typeof Link.Type, definition: ProtocolDefinition<unknown>): Result.Result<ConsoleSource, string> => {
  if ("serial" in link) {
    const line = { ...definition.serialDefaults, ...link.serial }
    if (!byIdPaths().includes(line.path)) return Result.fail(`${line.path} is not one of the serial adapters present (pick one from the list of /dev/serial/by-id names)`)
    if (line.baudRate < 300 || line.baudRate > 921_600) return Result.fail(`baud rate ${line.baudRate} is not a serial speed (300 to 921600)`)
    return Result.succeed({ _tag: "serial", ...line })
  }
  if ("udp" in link) return Result.map(endpoint(link.udp.listen, "0.0.0.0:4002"), (at) => ({ _tag: "udp-listen", endpoint: at }))
  return "listen" in link.tcp
    ? Result.map(endpoint(link.tcp.listen, "0.0.0.0:4001"), (at) => ({ _tag: "tcp-listen", endpoint: at }))
    : Result.map(endpoint(link.tcp.connect, "192.168.1.50:4001"), (at) => ({ _tag: "tcp-connect", endpoint: at }))
}

/** The body of `POST /api/listen`, checked as the config would check the scoreboard; or what is wrong, in words. */
export const listenRequest = (body: unknown): Result.Result<ListenRequest, string> => {
  const decoded = Schema.decodeUnknownResult(ListenBody)(body)
  if (Result.isFailure(decoded)) return Result.fail(`expected { protocol, sport, options?, link: { serial } | { tcp } | { udp } }: ${oneLine(decoded.failure.message)}`)
  const { protocol, sport, link } = decoded.success
  const definition = Object.hasOwn(protocols, protocol) ? protocols[protocol]! : undefined
  if (definition === undefined) return Result.fail(`no console protocol "${protocol}" (the list of consoles names them)`)
  if (!definition.sports.includes(sport)) return Result.fail(`${protocol} does not read ${sport}: it reads ${definition.sports.join(", ")}`)
  const options = Schema.decodeUnknownResult(definition.optionsSchema)(decoded.success.options ?? {})
  if (Result.isFailure(options)) return Result.fail(`options: ${oneLine(options.failure.message)}`)
  const problems = definition.sportProblems?.(options.success, sport) ?? []
  if (problems.length > 0) return Result.fail(problems.map((p) => `options.${p.path.join(".")}: ${p.issue}`).join("; "))
  return Result.map(sourceOf(link, definition), (source) => ({ definition, sport, options: options.success as object, source }))
}
