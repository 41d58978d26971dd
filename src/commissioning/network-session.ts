import { Deferred, Effect } from "effect"
import { createSocket, type Socket as Datagrams } from "node:dgram"
import { connect, createServer, type Server, type Socket } from "node:net"
import { formatHostPort, type HostPort, plainAddress } from "../domain/host-port.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import { networkProblem } from "../transport/network-problem.ts"
import { CommissioningFailure, exitUsage } from "./commissioning-failure.ts"

/** What the commissioning tools need from a link once it is open. */
export interface Session {
  /** Printed while the console is awaited; undefined when bytes can come at once. */
  readonly waiting: string | undefined
  /** Completes once the console is there, naming it: "console 192.168.1.60:51234". */
  readonly arrived: Effect.Effect<string>
  /** Completes with the reason once the link dies: the console closed the connection, the port was lost. */
  readonly lost: Effect.Effect<string>
}

/** Where each chunk goes (stamped on arrival), and where a line for the technician goes. */
export interface Sinks {
  readonly onChunk: (chunk: ReceivedChunk) => void
  readonly notice: (line: string) => void
}

/** A commissioning tool gives up on a connect sooner than the daemon: a technician is waiting. */
const connectTimeoutMs = 5_000

const cannot = (err: unknown, endpoint: string) => new CommissioningFailure({ message: networkProblem(err, endpoint), exitCode: exitUsage })

/**
 * Waits for a console to connect (Bodet's network output). As in the daemon, a second
 * connection replaces the first: a console that rebooted connects again before its old
 * connection times out. The current console closing its connection is the link lost.
 */
export const tcpListenSession = (endpoint: HostPort, sinks: Sinks) =>
  Effect.gen(function*() {
    const address = formatHostPort(endpoint)
    const arrived = yield* Deferred.make<string>()
    const lost = yield* Deferred.make<string>()
    const current: { socket: Socket | undefined; peer: string } = { socket: undefined, peer: "" }
    const onConnection = (socket: Socket) => {
      const peer = `${plainAddress(socket.remoteAddress)}:${socket.remotePort}`
      const previous = current.socket === undefined ? undefined : current.peer
      current.socket?.destroy()
      current.socket = socket
      current.peer = peer
      socket.on("data", (bytes: Buffer) => {
        // Stamped first thing: receive time is the console's clock.
        const receivedAt = Date.now()
        if (current.socket === socket) sinks.onChunk({ bytes, receivedAt })
      })
      let reason = `console ${peer} closed the connection`
      socket.on("error", (err) => {
        reason = `console ${networkProblem(err, peer)}`
      })
      socket.on("close", () => {
        if (current.socket === socket) Deferred.doneUnsafe(lost, Effect.succeed(reason))
      })
      if (previous === undefined) Deferred.doneUnsafe(arrived, Effect.succeed(`console ${peer}`))
      else sinks.notice(`A new connection from ${peer} replaces console ${previous} (one console at a time, as the daemon does): reading ${peer} from now on`)
    }
    yield* Effect.acquireRelease(
      Effect.callback<Server, CommissioningFailure>((resume) => {
        let listening = false
        const server = createServer(onConnection)
        server.on("error", (err) => {
          if (listening) Deferred.doneUnsafe(lost, Effect.succeed(networkProblem(err, address)))
          else resume(Effect.fail(cannot(err, address)))
        })
        // exclusive: fail on a port the daemon holds rather than share it.
        server.listen({ host: endpoint.host, port: endpoint.port, exclusive: true }, () => {
          listening = true
          resume(Effect.succeed(server))
        })
        return Effect.sync(() => server.close())
      }),
      (server) => Effect.sync(() => {
        current.socket?.destroy()
        server.close()
      })
    )
    return { waiting: `Waiting for a console to connect to ${address}…`, arrived: Deferred.await(arrived), lost: Deferred.await(lost) } satisfies Session
  })

/** Connects once to a console or a serial-to-Ethernet converter: no reconnect, a technician is watching. */
export const tcpConnectSession = (endpoint: HostPort, sinks: Sinks) =>
  Effect.gen(function*() {
    const target = formatHostPort(endpoint)
    const lost = yield* Deferred.make<string>()
    yield* Effect.acquireRelease(
      Effect.callback<Socket, CommissioningFailure>((resume) => {
        let connected = false
        let problem: unknown
        const socket = connect({ host: endpoint.host, port: endpoint.port, timeout: connectTimeoutMs })
        socket.on("data", (bytes: Buffer) => sinks.onChunk({ bytes, receivedAt: Date.now() }))
        socket.on("timeout", () => {
          if (!connected) socket.destroy(Object.assign(new Error("connect timeout"), { code: "ETIMEDOUT" }))
        })
        socket.on("error", (err) => {
          problem = err
        })
        socket.on("close", () => {
          if (!connected) return resume(Effect.fail(cannot(problem ?? new Error("closed before connecting"), target)))
          Deferred.doneUnsafe(lost, Effect.succeed(problem === undefined ? `${target} closed the connection` : networkProblem(problem, target)))
        })
        socket.on("connect", () => {
          connected = true
          socket.setTimeout(0)
          resume(Effect.succeed(socket))
        })
        return Effect.sync(() => socket.destroy())
      }),
      (socket) => Effect.sync(() => socket.destroy())
    )
    return { waiting: undefined, arrived: Effect.succeed(`${target} (TCP)`), lost: Deferred.await(lost) } satisfies Session
  })

/**
 * Datagrams on a port, each one chunk. UDP has no connection: the console is there once its
 * first datagram arrives. Every sender is read, as by the daemon without `from:`; a new sender
 * is told, since two consoles on one port would mix their scores.
 */
export const udpListenSession = (endpoint: HostPort, sinks: Sinks) =>
  Effect.gen(function*() {
    const address = formatHostPort(endpoint)
    const arrived = yield* Deferred.make<string>()
    const lost = yield* Deferred.make<string>()
    // By IP, as udp.from: names a console; a few are named, more would only flood the screen.
    const senders = new Set<string>()
    const onDatagram = (bytes: Buffer, ip: string, port: number) => {
      sinks.onChunk({ bytes, receivedAt: Date.now() })
      if (senders.has(ip) || senders.size >= maxNamedSenders) return
      senders.add(ip)
      if (senders.size === 1) Deferred.doneUnsafe(arrived, Effect.succeed(`console ${ip}:${port} (UDP to ${address})`))
      else sinks.notice(`Datagrams from ${ip} too: read together with the first console's (udp.from: in the config reads one address only)`)
    }
    yield* Effect.acquireRelease(
      Effect.callback<Datagrams, CommissioningFailure>((resume) => {
        let bound = false
        const socket = createSocket({ type: endpoint.host.includes(":") ? "udp6" : "udp4" })
        socket.on("message", (bytes, info) => onDatagram(bytes, plainAddress(info.address), info.port))
        socket.on("error", (err) => {
          if (bound) Deferred.doneUnsafe(lost, Effect.succeed(networkProblem(err, address)))
          else resume(Effect.fail(cannot(err, address)))
        })
        socket.bind({ address: endpoint.host, port: endpoint.port, exclusive: true }, () => {
          bound = true
          resume(Effect.succeed(socket))
        })
        return Effect.sync(() => closeQuietly(socket))
      }),
      (socket) => Effect.sync(() => closeQuietly(socket))
    )
    return { waiting: `Waiting for the console's datagrams on ${address}…`, arrived: Deferred.await(arrived), lost: Deferred.await(lost) } satisfies Session
  })

const maxNamedSenders = 16

/** Closing twice throws ERR_SOCKET_DGRAM_NOT_RUNNING: once is enough. */
const closeQuietly = (socket: Datagrams) => {
  try {
    socket.close()
  } catch {
    // already closed
  }
}
