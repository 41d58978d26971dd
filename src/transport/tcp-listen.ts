import { Clock, Deferred, Effect, Queue, Stream } from "effect"
import { createServer, type Server, type Socket } from "node:net"
import type { HostPort } from "../domain/host-port.ts"
import { formatHostPort, plainAddress } from "../domain/host-port.ts"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { superviseLink } from "./link-supervisor.ts"
import { networkProblem } from "./network-problem.ts"
import { quietReason, Silence } from "./silence.ts"
import { keepAliveMs } from "./tcp-connect.ts"

export interface TcpListenOptions {
  readonly endpoint: HostPort
  /** Only connections from this address are taken; others are closed. */
  readonly from?: string
  /** No bytes for this long from the connected console: reported down, like an unplugged cable. */
  readonly quietMs: number
}

/** What happened to the console's connection, told to the session from socket callbacks. */
type ConsoleEvent =
  | { readonly _tag: "connected"; readonly peer: string }
  | { readonly _tag: "replaced"; readonly previous: string; readonly peer: string }
  | { readonly _tag: "closed"; readonly peer: string; readonly reason: string }
  | { readonly _tag: "back"; readonly peer: string }
  | { readonly _tag: "refused"; readonly peer: string }

/** Strangers named in the log; more are only closed, so a scan of the port cannot grow memory. */
const maxNamedStrangers = 16

/**
 * Bytes from a console that connects to the bridge (Bodet's network output connects to a
 * configured IP and port), each chunk stamped on arrival. One console per place: a second
 * connection replaces the first (a console that rebooted connects again before the old
 * connection times out), and it is logged. A connection silent for `quietMs` is reported down
 * but left open: the console may resume on it, and if it does not, its next connection replaces
 * it. Never fails and never ends; a port that cannot be bound is retried on `reconnectSchedule`.
 */
export const tcpListenChunks = (options: TcpListenOptions, onState: (state: LinkState) => void): Stream.Stream<ReceivedChunk> =>
  Stream.callback<ReceivedChunk>((queue) => {
    const address = formatHostPort(options.endpoint)
    return superviseLink({
      target: address,
      noun: `TCP listener on ${address}`,
      // The supervisor's "up" is the port bound; the link is up only once a console connects.
      onState: (state) => onState(state._tag === "connected" ? { _tag: "listening", target: address } : state),
      upMessage: `listening on ${address} (TCP) for the console to connect`,
      session: (bound) =>
        listenSession(options, address, bound, onState, (chunk) => {
          Queue.offerUnsafe(queue, chunk)
        })
    }).pipe(Effect.annotateLogs({ link: `tcp listen ${address}` }))
  })

/** The console's connection of the moment, shared by the socket callbacks and the silence watch. */
interface ConsoleSlot {
  current: Socket | undefined
  peer: string
}

interface Acceptance {
  readonly options: TcpListenOptions
  readonly slot: ConsoleSlot
  readonly silence: Silence
  readonly clock: Clock.Clock
  readonly events: Queue.Queue<ConsoleEvent>
  readonly emit: (chunk: ReceivedChunk) => void
}

/** A stranger is closed before it can take the console's place, and named once (up to a few). */
const refuseStranger = (socket: Socket, address: string, peer: string, strangers: Set<string>, events: Queue.Queue<ConsoleEvent>) => {
  socket.destroy()
  if (!strangers.has(address) && strangers.size < maxNamedStrangers) {
    strangers.add(address)
    Queue.offerUnsafe(events, { _tag: "refused", peer })
  }
}

/** The socket becomes the console's connection: its bytes are stamped and emitted, its end told. */
const takeConsole = ({ slot, silence, clock, events, emit }: Acceptance, socket: Socket, peer: string) => {
  socket.setKeepAlive(true, keepAliveMs)
  const previous = slot.current
  slot.current = socket
  slot.peer = peer
  silence.reset(clock.currentTimeMillisUnsafe())
  let reason = `console ${peer} closed the connection`
  // Stamped first thing: receive time is the console's clock.
  socket.on("data", (bytes: Buffer) => {
    if (slot.current !== socket) return
    const receivedAt = clock.currentTimeMillisUnsafe()
    const wasQuiet = silence.heard(receivedAt)
    emit({ bytes, receivedAt })
    if (wasQuiet) Queue.offerUnsafe(events, { _tag: "back", peer })
  })
  socket.on("error", (err) => {
    reason = `console ${networkProblem(err, peer)}`
  })
  socket.on("close", () => {
    if (slot.current !== socket) return
    slot.current = undefined
    Queue.offerUnsafe(events, { _tag: "closed", peer, reason })
  })
  if (previous === undefined) return Queue.offerUnsafe(events, { _tag: "connected", peer })
  previous.destroy()
  Queue.offerUnsafe(events, { _tag: "replaced", previous: `${plainAddress(previous.remoteAddress)}:${previous.remotePort}`, peer })
}

/** What to do with each connection: only `from` (when set) may be the console. */
const acceptConnections = (acceptance: Acceptance) => {
  const strangers = new Set<string>()
  return (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress)
    const peer = `${address}:${socket.remotePort}`
    const from = acceptance.options.from
    if (from !== undefined && address !== from) return refuseStranger(socket, address, peer, strangers, acceptance.events)
    takeConsole(acceptance, socket, peer)
  }
}

/** Link states and log lines for what happened to the console's connection. */
const followConsole = (options: TcpListenOptions, address: string, onState: (state: LinkState) => void) => {
  const connectedVia = (peer: string): LinkState => ({ _tag: "connected", target: `${peer} → ${address}` })
  const down = (reason: string): LinkState => ({ _tag: "disconnected", target: address, reason, retryInMs: 0 })
  return (event: ConsoleEvent) => {
    switch (event._tag) {
      case "connected":
        onState(connectedVia(event.peer))
        return Effect.log(`console ${event.peer} connected to ${address}`)
      case "replaced":
        onState(down(`replaced by a new connection from ${event.peer}`))
        onState(connectedVia(event.peer))
        return Effect.logWarning(`a new connection from ${event.peer} replaces the console's connection from ${event.previous}: one console per place`)
      case "closed":
        onState(down(event.reason))
        onState({ _tag: "listening", target: address })
        return Effect.logWarning(`${event.reason}; listening on ${address} for it to connect again`)
      case "back":
        onState(connectedVia(event.peer))
        return Effect.log(`console ${event.peer} sends again`)
      case "refused":
        return Effect.logWarning(`closed a connection from ${event.peer} on ${address}: only ${options.from} may connect (further ones from that address are closed silently)`)
    }
  }
}

const listenSession = Effect.fnUntraced(function*(
  options: TcpListenOptions,
  address: string,
  bound: Effect.Effect<void>,
  onState: (state: LinkState) => void,
  emit: (chunk: ReceivedChunk) => void
) {
  const lost = yield* Deferred.make<string>()
  const events = yield* Queue.unbounded<ConsoleEvent>()
  // Captured for the socket callbacks: arrivals and silence read the same clock as the watch.
  const clock = yield* Clock.Clock
  const silence = new Silence(options.quietMs, clock.currentTimeMillisUnsafe())
  const slot: ConsoleSlot = { current: undefined, peer: "" }
  const onConnection = acceptConnections({ options, slot, silence, clock, events, emit })
  const server = yield* Effect.acquireRelease(
    openServer(options.endpoint, address, (reason) => Deferred.doneUnsafe(lost, Effect.succeed(reason)), onConnection),
    (server) => Effect.sync(() => {
      slot.current?.destroy()
      slot.current = undefined
      server?.close()
    })
  )
  if (server === undefined) return yield* Deferred.await(lost)
  yield* bound
  const down = (reason: string): LinkState => ({ _tag: "disconnected", target: address, reason, retryInMs: 0 })
  yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(events), followConsole(options, address, onState))))
  yield* Effect.forkScoped(silence.watch((silentMs) => {
    if (slot.current === undefined) return Effect.void
    const reason = quietReason(`console ${slot.peer}`, silentMs)
    onState(down(reason))
    return Effect.logWarning(`${reason}; still listening on ${address}`)
  }))
  return yield* Deferred.await(lost)
})

/** The bound server, or undefined when the port could not be bound (the reason is in `markLost`). */
const openServer = (
  endpoint: HostPort,
  address: string,
  markLost: (reason: string) => void,
  onConnection: (socket: Socket) => void
) =>
  Effect.callback<Server | undefined>((resume) => {
    let listening = false
    const server = createServer(onConnection)
    server.on("error", (err) => {
      markLost(networkProblem(err, address))
      if (!listening) resume(Effect.succeed(undefined))
    })
    // exclusive: a second bridge (or place) on the same port fails here instead of sharing it.
    server.listen({ host: endpoint.host, port: endpoint.port, exclusive: true }, () => {
      listening = true
      resume(Effect.succeed(server))
    })
    return Effect.sync(() => server.close())
  })
