import { Effect, Schema } from "effect"
import { buttonSourceNames, buttonSources, type ButtonSourceType } from "../../adapters/button-registry.ts"
import type { ButtonLink } from "../../adapters/button-source.ts"
import { autoSource } from "../domain/click-origin.ts"
import { SerialLine } from "./place.ts"

/** The button source types the config accepts: the button registry's (adapters/button-registry.ts). */
export const buttonSourceTypes = buttonSourceNames
export type { ButtonSourceType }

/** The one link each source type is read over, from its definition. */
export const linkOfType: Readonly<Record<ButtonSourceType, ButtonLink>> = Object.fromEntries(
  buttonSourceNames.map((type) => [type, buttonSources[type]!.link])
) as Record<ButtonSourceType, ButtonLink>

/** The links a button's config can give, each with its own block below. */
const links = ["mqtt", "serial", "device", "gpio"] as const satisfies ReadonlyArray<ButtonLink>

const linkWords: Record<ButtonLink, string> = {
  mqtt: "mqtt: { topics: [...] }",
  serial: "serial: { path: /dev/serial/by-id/... }",
  device: "device: /dev/input/by-id/...-event-kbd",
  gpio: "gpio: { chip: gpiochip0, lines: [17] }"
}

// `+` fills one whole level and `#` only ends a topic, as MQTT defines them; anything else the broker rejects.
const isTopicFilter = (topic: string) =>
  topic.length > 0 && !topic.includes("\u0000") &&
  topic.split("/").every((level, index, levels) =>
    level === "+" || (level === "#" && index === levels.length - 1) || !/[+#]/u.test(level)
  )

const TopicFilter = Schema.String.check(Schema.makeFilter(
  (topic: string) => isTopicFilter(topic) ? undefined : "must be an MQTT topic; a wildcard fills a whole level: + as in shellies/+/input_event/0, # only at the end",
  { toJsonSchema: () => ({ minLength: 1 }) }
))

const ButtonMqtt = Schema.Struct({
  topics: Schema.Array(TopicFilter).annotate({
    description: "Topics of this device (QoS 1); wildcards allowed, e.g. shellies/shellybutton1-ABC123/input_event/+ ."
  }).check(Schema.isMinLength(1, { message: "list at least one topic" }))
}).annotate({ description: "Button messages from the broker in the top-level mqtt block (zigbee2mqtt, shelly)." })

const Gpio = Schema.Struct({
  chip: Schema.String.check(Schema.isPattern(/^(\/\S+|[A-Za-z0-9_.:][A-Za-z0-9_.:-]*)$/u, {
    message: "must be a chip name (gpiochip0) or an absolute path (/dev/gpiochip0)"
  })).annotate({ description: "GPIO chip: name (gpiochip0), label or /dev path, as gpiomon takes it." }),
  lines: Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65_535 }, {
    message: "must be a line offset: a whole number from 0 (see `gpioinfo`)"
  }))).annotate({ description: "Line offsets on the chip, one button each; the button id is the offset." }).check(
    Schema.isMinLength(1, { message: "list at least one line offset" }),
    Schema.isUnique({ message: "lists a line offset twice" })
  ),
  command: Schema.String.check(Schema.isPattern(/^(\/\S+|[A-Za-z0-9_.+][A-Za-z0-9_.+-]*)$/u, {
    message: "must be a program name on PATH (gpiomon) or an absolute path (/usr/bin/gpiomon)"
  })).annotate({
    description: "The gpiomon program (Debian package gpiod), libgpiod v1 or v2.",
    default: "gpiomon"
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed("gpiomon")))
}).annotate({ description: "GPIO lines read with gpiomon, run as a child process." })

const exactlyTheLinkOfItsType = Schema.makeFilter<{ readonly type: ButtonSourceType } & Partial<Record<(typeof links)[number], unknown>>>(
  (button) => {
    const needed = linkOfType[button.type]
    return [
      ...(button[needed] === undefined ? [`type ${button.type} needs ${linkWords[needed]}: how the device is reached`] : []),
      ...links.filter((link) => link !== needed && button[link] !== undefined).map((link) => ({
        path: [link],
        issue: `not used by type ${button.type}, which is read over ${needed}:`
      }))
    ]
  },
  {
    toJsonSchema: () => ({
      oneOf: buttonSourceTypes.map((type) => ({ properties: { type: { const: type } }, required: [linkOfType[type]] }))
    })
  }
)

// A press's metadata.source is its source's name: a source named "auto" would make presses pass for auto-highlights (isAutoClick).
const notTheAutoSource = Schema.makeFilter(
  (name: string) => name === autoSource ? `"${autoSource}" is reserved: it is the source of auto-highlights (metadata.source) — name this button source after its device` : undefined,
  { toJsonSchema: () => ({ not: { const: autoSource } }) }
)

/** A courtside button source: one device (or one gpiomon), its link, and its type's options. */
export const Button = Schema.Struct({
  name: Schema.String.check(
    Schema.isPattern(/^[A-Za-z0-9_.-]{1,64}$/u, { message: "must be 1–64 letters, digits, _ . or -" }),
    notTheAutoSource
  ).annotate({
    description: `Unique name of this source; places[].actions[].source refers to it. Not "${autoSource}" (reserved for auto-highlights).`
  }),
  type: Schema.Literals(buttonSourceTypes).annotate({
    description: `${buttonSourceNames.map((type) => `${type} (${buttonSources[type]!.summary})`).join(" | ")}.`
  }),
  mqtt: Schema.optionalKey(ButtonMqtt),
  serial: Schema.optionalKey(SerialLine.annotate({ description: "Microcontroller on a serial port (serial-buttons)." })),
  device: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\//u, {
    message: "must be an absolute device path such as /dev/input/by-id/usb-…-event-kbd"
  })).annotate({
    description: "Input device (input-event). Prefer /dev/input/by-id/…: /dev/input/eventN changes with replugging. Its keys also reach the console."
  })),
  gpio: Schema.optionalKey(Gpio),
  options: Schema.Record(Schema.String, Schema.Unknown).annotate({
    description: "The source type's own options (gesture timings, serial-buttons pattern, input-event keys …), checked by its schema.",
    default: {}
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed({})))
}).annotate({ description: "A courtside button source (device)." }).check(exactlyTheLinkOfItsType)

export type Button = typeof Button.Type
