import { Console, Effect, Queue } from "effect"
import { formatHostPort, type HostPort } from "../domain/host-port.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import { type Session, tcpConnectSession, tcpListenSession, udpListenSession } from "./network-session.ts"
import { portProblem } from "./port-problem.ts"
import type { SerialOptions } from "../transport/serial.ts"
import { openSerialSession } from "./serial-session.ts"
import { framingLabel } from "./serial-framing.ts"

/** A network link as the config names it: `tcp: {listen}`, `tcp: {connect}`, `udp: {listen}`. */
export type NetworkLink =
  | { readonly _tag: "tcp-listen"; readonly endpoint: HostPort }
  | { readonly _tag: "tcp-connect"; readonly endpoint: HostPort }
  | { readonly _tag: "udp-listen"; readonly endpoint: HostPort }

/** A serial line as the commissioning tools open it: path, speed and framing. */
export type SerialSource = { readonly _tag: "serial" } & SerialOptions

/** Where sniff and capture read a console from. */
export type ConsoleSource = SerialSource | NetworkLink

/** "/dev/ttyUSB0 at 9600 baud 8E1": the line as sniff and capture name it. */
export const describeSerialLine = (line: SerialOptions): string => `${line.path} at ${line.baudRate} baud ${framingLabel(line)}`

export type { Session } from "./network-session.ts"

/** "tcp listen 0.0.0.0:4001", as the status page names a link. */
export const describeNetworkLink = (link: NetworkLink): string => `${link._tag.replace("-", " ")} ${formatHostPort(link.endpoint)}`

/**
 * One short-lived source for the commissioning tools: a serial port, a TCP listener, a TCP
 * connection or a UDP port. No reconnect, since a technician is watching; each chunk is
 * stamped on arrival and handed to `onChunk`; everything closes with the scope. A port that
 * cannot be opened, bound or connected fails with exit code 2 and the reason.
 */
export const openSource = (source: ConsoleSource, onChunk: (chunk: ReceivedChunk) => void) =>
  Effect.gen(function*() {
    if (source._tag === "serial") {
      const serial = yield* openSerialSession(source, onChunk).pipe(Effect.mapError(portProblem))
      return { waiting: undefined, arrived: Effect.succeed(describeSerialLine(source)), lost: serial.lost } satisfies Session
    }
    // Lines about the link (a connection replaced) come from socket callbacks: printed in order from here.
    const notices = yield* Queue.unbounded<string>()
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(notices), (line) => Console.log(line))))
    const sinks = { onChunk, notice: (line: string) => void Queue.offerUnsafe(notices, line) }
    switch (source._tag) {
      case "tcp-listen":
        return yield* tcpListenSession(source.endpoint, sinks)
      case "tcp-connect":
        return yield* tcpConnectSession(source.endpoint, sinks)
      case "udp-listen":
        return yield* udpListenSession(source.endpoint, sinks)
    }
  })
