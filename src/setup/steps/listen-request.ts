import { Effect, Result, Schema } from "effect"
import type { ProtocolDefinition } from "../../../adapters/decoder.ts"
import { protocols } from "../../../adapters/registry.ts"
import type { ConsoleSource } from "../../commissioning/source.ts"
import { Scoreboard } from "../../config/place.ts"
import { formatPath, issueProblems } from "../../config/problems.ts"
import { type HostPort, parseHostPort } from "../../domain/host-port.ts"
import { type DeviceDirectories, pageDevice } from "./page-devices.ts"
import { type Interfaces, isLoopback, isOwnAddress, outsideVenue, portProblem } from "./venue-network.ts"

/** The link as a place's scoreboard gives it: the config's own serial:, tcp: and udp: schemas. */
const Link = Schema.Struct({
  serial: Scoreboard.fields.serial,
  tcp: Scoreboard.fields.tcp,
  udp: Scoreboard.fields.udp
})

const ListenBody = Schema.Struct({
  protocol: Schema.String,
  sport: Schema.String,
  options: Schema.optionalKey(Schema.Unknown),
  link: Link
})

/** What the page sends to `POST /api/listen`: the console, the court's sport, its options, the link as a scoreboard gives it. */
export type ListenBody = typeof ListenBody.Encoded

type LinkGiven = typeof Link.Type

/** A listening step, checked: the console's definition, its decoded options, and the link to open. */
export interface ListenRequest {
  readonly definition: ProtocolDefinition<unknown>
  readonly sport: string
  readonly options: object
  readonly source: ConsoleSource
}

/** What a listening step may reach, fixed when the server starts. */
export interface ListenReach {
  /** `scorebridge setup --lan`: a listener may bind the machine's network addresses, not only loopback. */
  readonly lan: boolean
  readonly directories: DeviceDirectories
  readonly interfaces?: Interfaces
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/gu, " ")

const strict = { errors: "all", onExcessProperty: "error" } as const

const isWildcard = (host: string) => host === "0.0.0.0" || host === "::"

/**
 * Where a listener binds: without --lan loopback only (0.0.0.0:4001 becomes 127.0.0.1:4001, a
 * converter on this machine or an SSH tunnel can reach it); with --lan, as given, if it is one
 * of this machine's addresses. Never a system port.
 */
const bindAt = (text: string, reach: ListenReach): Result.Result<HostPort, string> => {
  const at = parseHostPort(text)
  const port = portProblem(at.port)
  if (port !== undefined) return Result.fail(`${text}: ${port}`)
  if (isLoopback(at.host)) return Result.succeed(at)
  if (!reach.lan) return Result.succeed({ host: at.host.includes(":") ? "::1" : "127.0.0.1", port: at.port })
  return isWildcard(at.host) || isOwnAddress(at.host, reach.interfaces)
    ? Result.succeed(at)
    : Result.fail(`${text}: ${at.host} is not an address of this machine: listen on 0.0.0.0 or one of its own addresses`)
}

const connectTo = (text: string, reach: ListenReach): Result.Result<HostPort, string> => {
  const at = parseHostPort(text)
  const outside = outsideVenue(at.host, reach.interfaces)
  return outside === undefined ? Result.succeed(at) : Result.fail(`${text}: ${outside}`)
}

const networkSource = (link: LinkGiven, reach: ListenReach): Result.Result<ConsoleSource, string> => {
  if (link.udp !== undefined) return Result.map(bindAt(link.udp.listen, reach), (endpoint) => ({ _tag: "udp-listen", endpoint }))
  const tcp = link.tcp!
  if ((tcp.listen === undefined) === (tcp.connect === undefined)) return Result.fail("link.tcp: give listen: or connect:, one of them")
  return tcp.listen !== undefined
    ? Result.map(bindAt(tcp.listen, reach), (endpoint) => ({ _tag: "tcp-listen", endpoint }))
    : Result.map(connectTo(tcp.connect!, reach), (endpoint) => ({ _tag: "tcp-connect", endpoint }))
}

/**
 * The link to open. A serial line is one of the adapters present (a stable by-id name, the
 * device behind it a character device), opened with the court's speed and framing where it
 * gives them, else the console's (`serialDefaults`: Colorado sends 8E1), as the daemon opens it.
 */
const sourceOf = (link: LinkGiven, definition: ProtocolDefinition<unknown>, reach: ListenReach): Effect.Effect<ConsoleSource, string> => {
  const given = [link.serial, link.tcp, link.udp].filter((part) => part !== undefined).length
  if (given !== 1) return Effect.fail("link: give one of serial:, tcp: or udp:")
  if (link.serial === undefined) return Effect.fromResult(networkSource(link, reach))
  const { maxFrameBytes: _bound, ...line } = { ...definition.serialDefaults, ...link.serial }
  return Effect.map(pageDevice(reach.directories, "serial", line.path), () => ({ _tag: "serial", ...line }) satisfies ConsoleSource)
}

const bodyOf = (body: unknown) => {
  const decoded = Schema.decodeUnknownResult(ListenBody)(body, strict)
  if (Result.isSuccess(decoded)) return Result.succeed(decoded.success)
  const problems = issueProblems(decoded.failure.issue).map((p) => `${formatPath(p.path)}: ${p.message}`)
  return Result.fail(`expected { protocol, sport, options?, link: { serial } | { tcp } | { udp } }: ${problems.join("; ")}`)
}

const consoleOf = (protocol: string, sport: string, given: unknown) => {
  const definition = Object.hasOwn(protocols, protocol) ? protocols[protocol]! : undefined
  if (definition === undefined) return Result.fail(`no console protocol "${protocol}" (the list of consoles names them)`)
  if (!definition.sports.includes(sport)) return Result.fail(`${protocol} does not read ${sport}: it reads ${definition.sports.join(", ")}`)
  const options = Schema.decodeUnknownResult(definition.optionsSchema)(given ?? {})
  if (Result.isFailure(options)) return Result.fail(`options: ${oneLine(options.failure.message)}`)
  const problems = definition.sportProblems?.(options.success, sport) ?? []
  if (problems.length > 0) return Result.fail(problems.map((p) => `options.${p.path.join(".")}: ${p.issue}`).join("; "))
  return Result.succeed({ definition, options: options.success as object })
}

/** The body of `POST /api/listen`, checked as the config would check the scoreboard; or what is wrong, in words. */
export const listenRequest = (body: unknown, reach: ListenReach): Effect.Effect<ListenRequest, string> =>
  Effect.gen(function*() {
    const { protocol, sport, options, link } = yield* Effect.fromResult(bodyOf(body))
    const checked = yield* Effect.fromResult(consoleOf(protocol, sport, options))
    const source = yield* sourceOf(link, checked.definition, reach)
    return { ...checked, sport, source }
  })
