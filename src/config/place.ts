import { isIP } from "node:net"
import { Effect, Schema } from "effect"
import { protocolNames, protocols } from "../../adapters/registry.ts"
import { apiSports } from "../../adapters/shared/api-sports.ts"
import type { AutoRule } from "../domain/auto-rule.ts"
import { maxSettleMs } from "./settle-window.ts"
import { AutoHighlights } from "./auto-highlights.ts"
import { Action, ClickSettings, Teams } from "./clicks.ts"
import { hostPort } from "./host-port.ts"
import { ruleFitIssues } from "./rule-fit.ts"
import { isName, Name } from "./names.ts"

/** The protocols the config accepts: the registry's (adapters/registry.ts). */
export { protocolNames }

/** `daktronics-rtd (Daktronics All Sport 5000, RTD output on J6) | …`: each protocol with its definition's summary. */
const protocolList = protocolNames.map((name) => `${name} (${protocols[name]!.summary})`).join(" | ")

const baudRates = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400] as const

const maxFrameBytes = Schema.Int.check(Schema.isBetween({ minimum: 16, maximum: 65536 })).annotate({
  description: "Longest line or frame kept while framing; longer ones are discarded and counted (bounds memory when a delimiter never comes).",
  default: 4096
}).pipe(Schema.withDecodingDefaultKey(Effect.succeed(4096)))

/** A serial line: a scoreboard controller's, or a microcontroller's with buttons. */
export const SerialLine = Schema.Struct({
  path: Schema.String.check(
    Schema.isPattern(/^\//u, { message: "must be an absolute device path such as /dev/serial/by-id/usb-FTDI_…" })
  ).annotate({
    description: "Absolute device path. Prefer /dev/serial/by-id/… : it survives replugging and reboots, /dev/ttyUSB0 does not."
  }),
  baudRate: Schema.optionalKey(
    Schema.Literals(baudRates).annotate({ description: "Line speed; default: the protocol's documented speed." })
  ),
  dataBits: Schema.optionalKey(Schema.Literals([7, 8]).annotate({ description: "Data bits; default: the protocol's." })),
  parity: Schema.optionalKey(
    Schema.Literals(["none", "even", "odd"]).annotate({ description: "Parity; default: the protocol's." })
  ),
  stopBits: Schema.optionalKey(Schema.Literals([1, 2]).annotate({ description: "Stop bits; default: the protocol's." })),
  maxFrameBytes
}).annotate({ description: "A device on a serial port (USB adapter, RS-232/RS-485)." })

const MqttTopic = Schema.String.check(
  Schema.isPattern(/^[^#+\u0000]+$/u, {
    message: "must be a plain topic name: wildcards (+, #) would mix several controllers into one decoder"
  })
)

const MqttSource = Schema.Struct({
  topics: Schema.Array(MqttTopic).annotate({
    description: "Topics carrying this scoreboard's messages (subscribed with QoS 1). One decoder per topic."
  }).check(Schema.isMinLength(1, { message: "list at least one topic" }))
}).annotate({ description: "Scoreboard messages from the MQTT broker configured in the top-level mqtt block." })

const quietSeconds = (what: string) =>
  Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3600 })).annotate({
    description: `${what} Consoles repeat their state several times a second, so seconds of silence mean a fault.`,
    default: 10
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(10)))

const consoleAddress = Schema.String.check(Schema.makeFilter((text: string) =>
  isIP(text) === 0 ? "must be the console's IP address, e.g. 192.168.1.60" : undefined
))

const TcpLink = Schema.Struct({
  listen: Schema.optionalKey(hostPort("0.0.0.0:4001").annotate({
    description: "The console connects to the bridge (Bodet network output): address and port to listen on, e.g. 0.0.0.0:4001. "
      + "One console per place: a second connection replaces the first."
  })),
  connect: Schema.optionalKey(hostPort("192.168.1.50:4001").annotate({
    description: "The bridge connects to the console, or to a serial-to-Ethernet converter in TCP server mode (Moxa NPort, USR-TCP232), "
      + "e.g. 192.168.1.50:4001; reconnects forever on the serial ports' back-off."
  })),
  from: Schema.optionalKey(consoleAddress.annotate({
    description: "With listen: only connections from this IP address are taken; others are closed and logged. Without it, any device "
      + "that connects replaces the console's connection."
  })),
  quietSeconds: quietSeconds(
    "A connection with no bytes for this long is reported down, like an unplugged cable; with connect: it is also closed and opened again."
  ),
  maxFrameBytes
}).check(Schema.makeFilter(
  (tcp) =>
    tcp.listen !== undefined && tcp.connect !== undefined
      ? { path: ["connect"], issue: "give either listen: (the console connects to the bridge) or connect: (the bridge connects to the console), not both" }
      : tcp.listen === undefined && tcp.connect === undefined
      ? "give listen: HOST:PORT (the console connects to the bridge) or connect: HOST:PORT (the bridge connects to the console or a converter)"
      : tcp.from !== undefined && tcp.listen === undefined
      ? { path: ["from"], issue: "goes with listen: (which consoles may connect); with connect: the bridge chooses whom it talks to" }
      : undefined,
  { toJsonSchema: () => ({ oneOf: [{ required: ["listen"] }, { required: ["connect"] }] }) }
)).annotate({ description: "A console or serial-to-Ethernet converter on the network, over TCP." })

const UdpLink = Schema.Struct({
  listen: hostPort("0.0.0.0:4002").annotate({ description: "Address and port the console sends its datagrams to, e.g. 0.0.0.0:4002." }),
  from: Schema.optionalKey(consoleAddress.annotate({ description: "Only datagrams from this IP address are read; others are counted and ignored." })),
  quietSeconds: quietSeconds("No datagram for this long is reported as the link down, like an unplugged cable."),
  maxFrameBytes
}).annotate({ description: "A console sending UDP datagrams: each datagram is stamped on arrival (a JSON payload is one document)." })

const linkKeys = ["serial", "mqtt", "tcp", "udp"] as const

const exactlyOneLink = Schema.makeFilter<{ readonly serial?: unknown; readonly mqtt?: unknown; readonly tcp?: unknown; readonly udp?: unknown }>(
  (board) => {
    const given = linkKeys.filter((key) => board[key] !== undefined)
    if (given.length > 1) {
      return { path: [given[1]!], issue: `give one of serial:, mqtt:, tcp: or udp:, not ${given.join(" and ")} — one scoreboard has one link` }
    }
    if (given.length === 0) return "give serial:, mqtt:, tcp: or udp: — how the scoreboard is reached"
    return undefined
  },
  { toJsonSchema: () => ({ oneOf: linkKeys.map((key) => ({ required: [key] })) }) }
)

export const Scoreboard = Schema.Struct({
  protocol: Schema.Literals(protocolNames).annotate({
    description: `Controller protocol: ${protocolList}.`
  }),
  serial: Schema.optionalKey(SerialLine.annotate({ description: "Scoreboard controller on a serial port (USB adapter, RS-232/RS-485)." })),
  mqtt: Schema.optionalKey(MqttSource),
  tcp: Schema.optionalKey(TcpLink),
  udp: Schema.optionalKey(UdpLink),
  settleMs: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: maxSettleMs })).annotate({
    description: "Protocols that send one change as several frames (daktronics-rtd): how long (ms) a change is held for "
      + "more frames of the same change before it becomes an entry; the entry keeps the first frame's time. "
      + "Default from the line speed (80 at 19200 baud; 90 over tcp: or udp:, for a converter's packing); 0 turns settling off. Full-state protocols are never held."
  })),
  options: Schema.Record(Schema.String, Schema.Unknown).annotate({
    description: "Protocol-specific options, checked by the protocol's own schema (see the protocol's README).",
    default: {}
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed({})))
}).annotate({ description: "The place's scoreboard controller: protocol and link (serial, mqtt, tcp or udp)." }).check(exactlyOneLink)

export type Scoreboard = typeof Scoreboard.Type

// Rules read the score, and the sport decides which of them mean anything: both must be known at start-up.
const autoHighlightsFitPlace = Schema.makeFilter<{
  readonly key: string
  readonly sport?: string
  readonly scoreboard?: unknown
  readonly autoHighlights?: ReadonlyArray<AutoRule>
}>((place) => {
  const rules = place.autoHighlights
  if (rules === undefined || rules.length === 0) return undefined
  const at = ["autoHighlights"]
  return [
    ...(place.scoreboard === undefined
      ? [{ path: at, issue: `place ${place.key} has auto-highlights but no scoreboard: the rules read the score — add scoreboard: or remove autoHighlights` }]
      : []),
    ...(place.sport === undefined
      ? [{ path: at, issue: `place ${place.key} has auto-highlights but no sport: set sport: — it decides which rules fit and their default windows` }]
      : ruleFitIssues(rules, place.sport).map(({ path, issue }) => ({ path: [...at, ...path], issue })))
  ]
})

/** A recording place and what feeds it: its scoreboard and the button gestures mapped to it. */
export const Place = Schema.Struct({
  key: Schema.String.check(
    Schema.isPattern(/^[^\s/?#%\u0000-\u001f\u007f-\u009f]+$/u, { message: "must be the service's place key: no spaces, /, ?, # or %" }),
    isName(64, true)
  ).annotate({ description: "The service's placeKey (see GET /public/places)." }),
  name: Schema.optionalKey(Name.annotate({ description: "Display name for status and logs: 1–64 characters, no control characters." })),
  sport: Schema.optionalKey(Schema.Literals(apiSports).annotate({
    description: "Sport code from the service's list. Omitted: the place's sport as the service reports it."
  })),
  scoreboard: Schema.optionalKey(Scoreboard),
  actions: Schema.optionalKey(Schema.Array(Action).annotate({
    description: "What each button gesture does at this place: highlight (for home, away or none) or undo."
  })),
  autoHighlights: Schema.optionalKey(AutoHighlights),
  clicks: ClickSettings.pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  teams: Schema.optionalKey(Teams)
}).annotate({ description: "A recording place (court, field, rink) and the sources feeding it." }).check(autoHighlightsFitPlace)

export type Place = typeof Place.Type
