import { Effect, Schema } from "effect"
import { apiSports } from "../../adapters/shared/api-sports.ts"
import { maxSettleMs } from "../scoring/settle-window.ts"
import { Action, ClickSettings, Teams } from "./clicks.ts"

/** Controller protocols with a folder in adapters/; the registry must hold each of them. */
export const protocolNames = ["daktronics-rtd", "stramatel-452m", "lines", "json"] as const

const baudRates = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400] as const

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
  maxFrameBytes: Schema.Int.check(Schema.isBetween({ minimum: 16, maximum: 65536 })).annotate({
    description: "Longest line or frame kept while framing; longer ones are discarded and counted (bounds memory when a delimiter never comes).",
    default: 4096
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(4096)))
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

const exactlyOneLink = Schema.makeFilter<{ readonly serial?: unknown; readonly mqtt?: unknown }>(
  (board) => {
    if (board.serial !== undefined && board.mqtt !== undefined) {
      return { path: ["mqtt"], issue: "give either serial: or mqtt:, not both — one scoreboard has one link" }
    }
    if (board.serial === undefined && board.mqtt === undefined) return "give serial: or mqtt: — how the scoreboard is reached"
    return undefined
  },
  { toJsonSchema: () => ({ oneOf: [{ required: ["serial"] }, { required: ["mqtt"] }] }) }
)

export const Scoreboard = Schema.Struct({
  protocol: Schema.Literals(protocolNames).annotate({
    description: "Controller protocol: daktronics-rtd | stramatel-452m | lines (text lines, regex or delimiter) | json (JSON payloads)."
  }),
  serial: Schema.optionalKey(SerialLine.annotate({ description: "Scoreboard controller on a serial port (USB adapter, RS-232/RS-485)." })),
  mqtt: Schema.optionalKey(MqttSource),
  settleMs: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: maxSettleMs })).annotate({
    description: "Protocols that send one change as several frames (daktronics-rtd): how long (ms) a change is held for "
      + "more frames of the same change before it becomes an entry; the entry keeps the first frame's time. "
      + "Default from the line speed (80 at 19200 baud); 0 turns settling off. Full-state protocols are never held."
  })),
  options: Schema.Record(Schema.String, Schema.Unknown).annotate({
    description: "Protocol-specific options, checked by the protocol's own schema (see the protocol's README).",
    default: {}
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed({})))
}).annotate({ description: "The place's scoreboard controller: protocol and link (serial or mqtt)." }).check(exactlyOneLink)

export type Scoreboard = typeof Scoreboard.Type

/** A recording place and what feeds it: its scoreboard and the button gestures mapped to it. */
export const Place = Schema.Struct({
  key: Schema.String.check(
    Schema.isPattern(/^[^\s/?#%]+$/u, { message: "must be the service's place key: no spaces, /, ?, # or %" })
  ).annotate({ description: "The service's placeKey (see GET /public/places)." }),
  name: Schema.optionalKey(Schema.NonEmptyString.annotate({ description: "Display name for status and logs." })),
  sport: Schema.optionalKey(Schema.Literals(apiSports).annotate({
    description: "Sport code from the service's list. Omitted: the place's sport as the service reports it."
  })),
  scoreboard: Schema.optionalKey(Scoreboard),
  actions: Schema.optionalKey(Schema.Array(Action).annotate({
    description: "What each button gesture does at this place: highlight (for home, away or none) or undo."
  })),
  clicks: ClickSettings.pipe(Schema.withDecodingDefaultKey(Effect.succeed({}))),
  teams: Schema.optionalKey(Teams)
}).annotate({ description: "A recording place (court, field, rink) and the sources feeding it." })

export type Place = typeof Place.Type
