import { Clock, Deferred, Effect, Queue, Stream } from "effect"
import { connect, type Socket } from "node:net"
import type { HostPort } from "../domain/host-port.ts"
import { formatHostPort } from "../domain/host-port.ts"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { superviseLink } from "./link-supervisor.ts"
import { networkProblem } from "./network-problem.ts"
import { quietReason, Silence } from "./silence.ts"

/** A console or converter that does not accept within this long is down (a pulled cable drops SYNs silently). */
const connectTimeoutMs = 5_000

/** Keepalive probes start after this much idle time, so a half-open connection errors instead of hanging. */
export const keepAliveMs = 5_000

export interface TcpConnectOptions {
  readonly endpoint: HostPort
  /** No bytes for this long: the connection is closed and opened again. */
  readonly quietMs: number
}

/**
 * Bytes from a console or a serial-to-Ethernet converter (Moxa NPort, USR-TCP232 in TCP server
 * mode) that the bridge connects to, each chunk stamped on arrival. Never fails and never ends:
 * a refused or dropped connection, or one silent for `quietMs`, reports `disconnected` and is
 * opened again on the serial ports' `reconnectSchedule`. A silent connection is closed rather
 * than waited on: converters that allow one client keep a dead session and refuse the next.
 */
export const tcpConnectChunks = (options: TcpConnectOptions, onState: (state: LinkState) => void): Stream.Stream<ReceivedChunk> =>
  Stream.callback<ReceivedChunk>((queue) => {
    const target = formatHostPort(options.endpoint)
    return superviseLink({
      target,
      noun: "TCP connection",
      onState,
      upMessage: `TCP connection to ${target} connected`,
      session: (connected) =>
        connectSession(options, target, connected, (chunk) => {
          Queue.offerUnsafe(queue, chunk)
        })
    }).pipe(Effect.annotateLogs({ link: `tcp ${target}` }))
  })

const connectSession = Effect.fnUntraced(function*(
  options: TcpConnectOptions,
  target: string,
  connected: Effect.Effect<void>,
  emit: (chunk: ReceivedChunk) => void
) {
  const lost = yield* Deferred.make<string>()
  // Captured for the socket callback: arrivals and silence read the same clock as the watch.
  const clock = yield* Clock.Clock
  const silence = new Silence(options.quietMs, clock.currentTimeMillisUnsafe())
  const markLost = (reason: string) => Deferred.doneUnsafe(lost, Effect.succeed(reason))
  const opened = yield* Effect.acquireRelease(
    openSocket(options.endpoint, target, (bytes) => {
      const receivedAt = clock.currentTimeMillisUnsafe()
      silence.heard(receivedAt)
      emit({ bytes, receivedAt })
    }, markLost),
    (socket) => Effect.sync(() => socket?.destroy())
  )
  if (opened === undefined) return yield* Deferred.await(lost)
  silence.reset(yield* Clock.currentTimeMillis)
  yield* connected
  yield* Effect.forkScoped(silence.watch((silentMs) => Effect.sync(() => markLost(`${quietReason(target, silentMs)}; closed to reconnect`))))
  return yield* Deferred.await(lost)
})

/** The connected socket, or undefined when it could not connect (the reason is in `lost`). */
const openSocket = (endpoint: HostPort, target: string, onBytes: (bytes: Buffer) => void, markLost: (reason: string) => void) =>
  Effect.callback<Socket | undefined>((resume) => {
    let isConnected = false
    const socket = connect({ host: endpoint.host, port: endpoint.port, timeout: connectTimeoutMs, keepAlive: true, keepAliveInitialDelay: keepAliveMs })
    // Registered before anything else and stamped first thing: receive time is the console's clock.
    socket.on("data", onBytes)
    socket.on("timeout", () => {
      // Only the connect is timed: a quiet open connection is the silence watch's call.
      if (!isConnected) socket.destroy(Object.assign(new Error("connect timeout"), { code: "ETIMEDOUT" }))
    })
    socket.on("error", (err) => markLost(networkProblem(err, target)))
    socket.on("close", () => {
      markLost(`${target} closed the connection`)
      if (!isConnected) resume(Effect.succeed(undefined))
    })
    socket.on("connect", () => {
      isConnected = true
      socket.setTimeout(0)
      resume(Effect.succeed(socket))
    })
    return Effect.sync(() => socket.destroy())
  })
