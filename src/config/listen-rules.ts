import type { Schema } from "effect"
import { parseHostPort } from "../domain/host-port.ts"
import { formatPath } from "./problems.ts"

interface ListenFields {
  readonly status: { readonly listen: string }
  readonly places: ReadonlyArray<{
    readonly scoreboard?: { readonly tcp?: { readonly listen?: string }; readonly udp?: { readonly listen: string } }
  }>
}

type Issue = Schema.FilterIssue & { readonly path: ReadonlyArray<PropertyKey> }

interface Listener {
  readonly transport: "TCP" | "UDP"
  readonly listen: string
  readonly at: ReadonlyArray<PropertyKey>
}

const wildcard = new Set(["0.0.0.0", "::", ""])

/** Two sockets on one port clash when their addresses overlap: the same one, or either is every address. */
const clash = (a: Listener, b: Listener) => {
  if (a.transport !== b.transport) return false
  const x = parseHostPort(a.listen)
  const y = parseHostPort(b.listen)
  return x.port === y.port && (x.host === y.host || wildcard.has(x.host) || wildcard.has(y.host))
}

/** One port, one listener: a second one would fail to bind at start-up, or (SO_REUSEPORT) steal half the console's bytes. */
export const listenRules = (config: ListenFields): Array<Issue> => {
  const listeners: Array<Listener> = [
    { transport: "TCP", listen: config.status.listen, at: ["status", "listen"] },
    ...config.places.flatMap((place, index): Array<Listener> => [
      ...(place.scoreboard?.tcp?.listen === undefined
        ? []
        : [{ transport: "TCP" as const, listen: place.scoreboard.tcp.listen, at: ["places", index, "scoreboard", "tcp", "listen"] }]),
      ...(place.scoreboard?.udp === undefined
        ? []
        : [{ transport: "UDP" as const, listen: place.scoreboard.udp.listen, at: ["places", index, "scoreboard", "udp", "listen"] }])
    ])
  ]
  return listeners.flatMap((listener, index) => {
    const earlier = listeners.findIndex((other, o) => o < index && clash(other, listener))
    return earlier === -1 ? [] : [{
      path: listener.at,
      issue: `${listener.transport} ${listener.listen} is also used by ${formatPath(listeners[earlier]!.at)}: give each console its own port`
    }]
  })
}
