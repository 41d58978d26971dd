import { Clock, Deferred, Effect, Queue, Stream } from "effect"
import { createSocket, type Socket } from "node:dgram"
import type { HostPort } from "../domain/host-port.ts"
import { formatHostPort, plainAddress } from "../domain/host-port.ts"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { superviseLink } from "./link-supervisor.ts"
import { networkProblem } from "./network-problem.ts"
import { quietReason, Silence } from "./silence.ts"

export interface UdpListenOptions {
  readonly endpoint: HostPort
  /** Only datagrams from this address are read. */
  readonly from?: string
  /** No datagram for this long: reported down, like an unplugged cable. */
  readonly quietMs: number
}

/** Senders named in the log as ignored; more are only counted, so a flood cannot grow memory. */
const maxNamedStrangers = 16

/**
 * Datagrams from one console, each stamped on arrival as one chunk. The link is up while
 * datagrams come (UDP has no connection: silence for `quietMs` is reported down) and datagrams
 * from other senders than `from` are counted and ignored. Never fails and never ends; a port
 * that cannot be bound is retried on `reconnectSchedule`.
 */
export const udpListenChunks = (options: UdpListenOptions, onState: (state: LinkState) => void): Stream.Stream<ReceivedChunk> =>
  Stream.callback<ReceivedChunk>((queue) => {
    const address = formatHostPort(options.endpoint)
    return superviseLink({
      target: address,
      noun: `UDP port ${address}`,
      onState: (state) => onState(state._tag === "connected" ? { _tag: "listening", target: address } : state),
      upMessage: `listening on ${address} (UDP) for the console's datagrams${options.from === undefined ? "" : ` from ${options.from}`}`,
      session: (bound) =>
        udpSession(options, address, bound, onState, (chunk) => {
          Queue.offerUnsafe(queue, chunk)
        })
    }).pipe(Effect.annotateLogs({ link: `udp ${address}` }))
  })

type SenderEvent = { readonly _tag: "heard"; readonly sender: string } | { readonly _tag: "stranger"; readonly sender: string }

const udpSession = Effect.fnUntraced(function*(
  options: UdpListenOptions,
  address: string,
  bound: Effect.Effect<void>,
  onState: (state: LinkState) => void,
  emit: (chunk: ReceivedChunk) => void
) {
  const lost = yield* Deferred.make<string>()
  const events = yield* Queue.unbounded<SenderEvent>()
  // Captured for the socket callback: arrivals and silence read the same clock as the watch.
  const clock = yield* Clock.Clock
  const silence = new Silence(options.quietMs, clock.currentTimeMillisUnsafe())
  let up = false
  let lastSender = ""
  const strangers = new Set<string>()
  let ignored = 0
  const socket = yield* Effect.acquireRelease(
    openSocket(options.endpoint, address, (reason) => Deferred.doneUnsafe(lost, Effect.succeed(reason)), (bytes, sender) => {
      // Stamped first thing: receive time is the console's clock.
      const receivedAt = clock.currentTimeMillisUnsafe()
      if (options.from !== undefined && sender !== options.from) {
        ignored++
        if (!strangers.has(sender) && strangers.size < maxNamedStrangers) {
          strangers.add(sender)
          Queue.offerUnsafe(events, { _tag: "stranger", sender })
        }
        return
      }
      silence.heard(receivedAt)
      emit({ bytes, receivedAt })
      if (!up || sender !== lastSender) {
        up = true
        lastSender = sender
        Queue.offerUnsafe(events, { _tag: "heard", sender })
      }
    }),
    (socket) => Effect.sync(() => socket === undefined ? undefined : closeQuietly(socket))
  )
  if (socket === undefined) return yield* Deferred.await(lost)
  yield* bound
  const follow = (event: SenderEvent) => {
    if (event._tag === "stranger") {
      return Effect.logWarning(`ignoring datagrams from ${event.sender} on ${address}: only ${options.from} is read (${ignored} ignored so far)`)
    }
    onState({ _tag: "connected", target: `${event.sender} → ${address}` })
    return Effect.log(`datagrams from ${event.sender} arriving on ${address}`)
  }
  yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(events), follow)))
  yield* Effect.forkScoped(silence.watch((silentMs) => {
    if (!up) return Effect.void
    up = false
    const reason = quietReason(`no datagram on ${address}: console ${lastSender}`, silentMs)
    onState({ _tag: "disconnected", target: address, reason, retryInMs: 0 })
    onState({ _tag: "listening", target: address })
    return Effect.logWarning(reason)
  }))
  return yield* Deferred.await(lost)
})

/** The bound socket, or undefined when the port could not be bound (the reason is in `markLost`). */
const openSocket = (
  endpoint: HostPort,
  address: string,
  markLost: (reason: string) => void,
  onDatagram: (bytes: Buffer, sender: string) => void
) =>
  Effect.callback<Socket | undefined>((resume) => {
    let bound = false
    const socket = createSocket({ type: endpoint.host.includes(":") ? "udp6" : "udp4" })
    socket.on("message", (bytes, info) => onDatagram(bytes, plainAddress(info.address)))
    socket.on("error", (err) => {
      markLost(networkProblem(err, address))
      if (!bound) resume(Effect.succeed(undefined))
      closeQuietly(socket)
    })
    socket.bind({ address: endpoint.host, port: endpoint.port, exclusive: true }, () => {
      bound = true
      resume(Effect.succeed(socket))
    })
    return Effect.sync(() => closeQuietly(socket))
  })

/** Closing twice (an error, then the scope) throws ERR_SOCKET_DGRAM_NOT_RUNNING: once is enough. */
const closeQuietly = (socket: Socket) => {
  try {
    socket.close()
  } catch {
    // already closed
  }
}
