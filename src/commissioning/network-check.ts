import { Effect } from "effect"
import { createSocket } from "node:dgram"
import { connect, createServer } from "node:net"
import type { Config } from "../config/schema.ts"
import { formatHostPort, type HostPort, parseHostPort } from "../domain/host-port.ts"
import { networkProblem } from "../transport/network-problem.ts"
import { type CheckOutcome, fail, ok, warn } from "./check-outcome.ts"
import { describeNetworkLink, type NetworkLink } from "./source.ts"

/** A console or converter that does not accept within this long counts as not answering. */
const connectTimeoutMs = 3_000
/** How long doctor reads a connection: consoles send several times a second. */
const readMs = 2_000

interface NetworkTarget {
  readonly label: string
  readonly link: NetworkLink
  /** The config field, for advice. */
  readonly field: string
}

/** Every scoreboard reached over the network, with the config field that names its address. */
const networkTargets = (config: Config): ReadonlyArray<NetworkTarget> =>
  config.places.flatMap((place, index): ReadonlyArray<NetworkTarget> => {
    const board = place.scoreboard
    const label = `place ${place.key} scoreboard`
    const at = `places[${index}].scoreboard`
    if (board?.tcp?.listen !== undefined) return [{ label, link: { _tag: "tcp-listen", endpoint: parseHostPort(board.tcp.listen) }, field: `${at}.tcp.listen` }]
    if (board?.tcp?.connect !== undefined) return [{ label, link: { _tag: "tcp-connect", endpoint: parseHostPort(board.tcp.connect) }, field: `${at}.tcp.connect` }]
    if (board?.udp !== undefined) return [{ label, link: { _tag: "udp-listen", endpoint: parseHostPort(board.udp.listen) }, field: `${at}.udp.listen` }]
    return []
  })

/** Binds the address as the daemon would (exclusively) and lets it go at once: the error, or undefined when it could be bound. */
const tryBind = (link: NetworkLink) =>
  Effect.callback<unknown>((resume) => {
    const { host, port } = link.endpoint
    if (link._tag === "udp-listen") {
      const socket = createSocket({ type: host.includes(":") ? "udp6" : "udp4" })
      socket.once("error", (err) => resume(Effect.succeed(err)))
      socket.bind({ address: host, port, exclusive: true }, () => socket.close(() => resume(Effect.succeed(undefined))))
      return
    }
    const server = createServer()
    server.once("error", (err) => resume(Effect.succeed(err)))
    server.listen({ host, port, exclusive: true }, () => server.close(() => resume(Effect.succeed(undefined))))
  })

const bindOutcome = (target: NetworkTarget, err: unknown): CheckOutcome => {
  const what = `${target.label} ${describeNetworkLink(target.link)}`
  if (err === undefined) return ok(`${what}: free to listen on`)
  const { port } = target.link.endpoint
  if ((err as { code?: unknown } | null)?.code === "EADDRINUSE") {
    const ss = target.link._tag === "udp-listen" ? "ss -lunp" : "ss -ltnp"
    return warn(
      `${what}: in use (the daemon itself if it is running: check \`systemctl status scorebridge\`)`,
      `if the daemon is not running, another program holds the port: \`sudo ${ss} 'sport = :${port}'\` names it; stop it, or move ${target.field} and the console's destination to a free port`
    )
  }
  return fail(`${what}: ${networkProblem(err, formatHostPort(target.link.endpoint))}`, `set ${target.field} to 0.0.0.0:${port} or one of this machine's addresses (hostname -I lists them), with a port above 1024`)
}

type Probe =
  | { readonly _tag: "failed"; readonly error: unknown }
  | { readonly _tag: "read"; readonly bytes: number; readonly closed: boolean }

/** Connects within `connectTimeoutMs`, then counts the bytes that arrive within `readMs`. */
const probe = (endpoint: HostPort) =>
  Effect.callback<Probe>((resume) => {
    let bytes = 0
    let connected = false
    let timer: NodeJS.Timeout | undefined
    const socket = connect({ host: endpoint.host, port: endpoint.port })
    const finish = (result: Probe) => {
      clearTimeout(timer)
      socket.destroy()
      resume(Effect.succeed(result))
    }
    timer = setTimeout(() => finish({ _tag: "failed", error: Object.assign(new Error("connect timeout"), { code: "ETIMEDOUT" }) }), connectTimeoutMs)
    let problem: unknown
    socket.on("data", (chunk: Buffer) => (bytes += chunk.length))
    socket.on("error", (err) => (problem = err))
    socket.on("close", () => finish(connected ? { _tag: "read", bytes, closed: true } : { _tag: "failed", error: problem ?? new Error("closed before connecting") }))
    socket.on("connect", () => {
      connected = true
      clearTimeout(timer)
      timer = setTimeout(() => finish({ _tag: "read", bytes, closed: false }), readMs)
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      socket.destroy()
    })
  })

const oneClient = "a converter that takes one client may be serving the running daemon: stop it first (sudo systemctl stop scorebridge)"

const connectOutcome = (target: NetworkTarget, result: Probe): CheckOutcome => {
  const address = formatHostPort(target.link.endpoint)
  const what = `${target.label} ${describeNetworkLink(target.link)}`
  if (result._tag === "failed") {
    return fail(
      `${what}: ${networkProblem(result.error, address)}`,
      `check that the console or converter is on and reachable from here (ping ${target.link.endpoint.host}), its address and port in ${target.field}, and that a converter is in TCP server mode; ${oneClient}`
    )
  }
  const closed = result.closed ? ", then it closed the connection" : ""
  if (result.bytes > 0) return ok(`${what}: connected, ${result.bytes} bytes in ${readMs / 1000} s${closed}`)
  return warn(
    `${what}: connected, but no bytes in ${readMs / 1000} s${closed}`,
    `the console side is silent or its line settings are wrong: check that the console is on with its data output enabled, the cable from the console to the converter, and the converter's serial settings (speed, 8N1, RS-232 or RS-485); ${oneClient}`
  )
}

/**
 * One line per scoreboard on the network: a listen address must be free to bind (held is a
 * warning: most often the running daemon holds it), a connect target must accept within 3 s
 * and should send within 2 s (a converter that accepts but sends nothing has a silent console
 * or wrong line settings behind it).
 */
export const networkChecks = (config: Config): Effect.Effect<ReadonlyArray<CheckOutcome>> =>
  Effect.forEach(networkTargets(config), (target) =>
    target.link._tag === "tcp-connect"
      ? Effect.map(probe(target.link.endpoint), (result) => connectOutcome(target, result))
      : Effect.map(tryBind(target.link), (err) => bindOutcome(target, err)))
