import { Effect, Schema, SchemaGetter } from "effect"
import type { Gesture } from "../domain/button.ts"
import { bothOrNeither, WindowSeconds } from "./clip-window.ts"
import { isName, Name } from "./names.ts"
import { Overlay } from "./overlay.ts"

const gestures = ["single", "double", "triple", "hold", "release"] as const satisfies ReadonlyArray<Gesture>

// YAML reads `button: 1` as a number; button ids are text (key codes, line offsets, "left").
const ButtonId = Schema.Union([
  Schema.String.check(Schema.isMinLength(1, { message: "must not be empty; leave button: out to mean any button" }), isName()),
  Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a button id such as \"1\", \"left\" or a number from 0" }))
]).annotate({
  description: "Button id on a multi-button device (\"1\", \"left\", a key code, a GPIO line); omitted: any button of the source."
}).pipe(Schema.decodeTo(Schema.String, { decode: SchemaGetter.String(), encode: SchemaGetter.passthroughSupertype() }))

const pressFields = {
  source: Name.annotate({ description: "Name of a buttons[] entry." }),
  button: Schema.optionalKey(ButtonId),
  gesture: Schema.Literals(gestures).annotate({ description: "single | double | triple | hold | release" })
}

const Highlight = Schema.Struct({
  ...pressFields,
  do: Schema.Literal("highlight").annotate({ description: "highlight: a click (a moment) at the press time." }),
  team: Schema.Literals(["home", "away", "none"]).annotate({
    description: "Whose highlight: home | away (with that team's overlay) | none.",
    default: "none"
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed("none" as const)))
})

const Undo = Schema.Struct({
  ...pressFields,
  do: Schema.Literal("undo").annotate({ description: "undo: delete the last highlight this place created." }),
  team: Schema.optionalKey(Schema.Never.annotate({
    message: "not allowed with do: undo — undo deletes this place's last highlight, whichever team it was for"
  }))
})

/** What one gesture of one button source does at a place. */
export const Action = Schema.Union([Highlight, Undo]).annotate({ description: "A gesture of a button source and what it does here." })
export type Action = typeof Action.Type

const plainTopic = Schema.String.check(Schema.isPattern(/^[^#+\u0000]+$/u, {
  message: "must be a plain topic name: MQTT cannot publish to a wildcard (+, #)"
}))
const SignalPayload = Schema.Record(Schema.String, Schema.Unknown)

/** A device told of each clip outcome in its own words: e.g. a zigbee2mqtt lamp's `{ effect: blink }`. */
const ClipSignal = Schema.Struct({
  topic: plainTopic.annotate({ description: "MQTT topic of the device, e.g. zigbee2mqtt/court-1-lamp/set (needs the top-level mqtt block)." }),
  clipReady: Schema.optionalKey(SignalPayload.annotate({ description: "JSON published on the topic when a click's clip is ready, e.g. { effect: blink }." })),
  noClip: Schema.optionalKey(SignalPayload.annotate({ description: "JSON published on the topic when a click made no clip by the deadline, e.g. { effect: breathe }." }))
}).annotate({ description: "Publishes a device's own payload on each clip outcome, so a lamp by the court can blink when the clip is ready." })

export const ClickSettings = Schema.Struct({
  beforeSeconds: Schema.optionalKey(WindowSeconds("Seconds of footage before the press (0–60). With afterSeconds; neither = the sport's default window.")),
  afterSeconds: Schema.optionalKey(WindowSeconds("Seconds of footage after the press (0–60). With beforeSeconds.")),
  undoWithinSeconds: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3600 }, { message: "must be a whole number of seconds from 1 to 3600" })).annotate({
    description: "How old a highlight may be for undo to delete it, in seconds.",
    default: 120
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(120))),
  // Capped well below the minute of footage the service keeps: a held auto-highlight's clip must still be there.
  mergeSeconds: Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 30 }, { message: "must be from 0 to 30 seconds" })).annotate({
    description: "A press and an auto-highlight closer than this make one click (the press's); the auto-highlight is held this long before it is sent, "
      + "so a press can still replace it. 0 sends auto-highlights at once and never merges.",
    default: 5
  }).pipe(Schema.withDecodingDefaultKey(Effect.succeed(5))),
  feedbackTopic: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[^#+\u0000]+$/u, {
    message: "must be a plain topic name: MQTT cannot publish to a wildcard (+, #)"
  })).annotate({ description: "MQTT topic for operator feedback on each press and each clip outcome (needs the top-level mqtt block)." })),
  clipSignal: Schema.optionalKey(ClipSignal),
  overlay: Schema.optionalKey(Overlay.annotate({
    description: "The overlay of clicks about neither team: a swimmer's finish (live fields {{lane}}, {{place}}, {{time}}, {{event}}, {{heat}}, {{swimmer}}), "
      + "presses with team: none, period-end highlights. Team clicks carry their team's overlay (teams:)."
  }))
}).annotate({ description: "How this place's highlights are made." }).check(bothOrNeither("the sport's default window"))
export type ClickSettings = typeof ClickSettings.Type

const Team = Schema.Struct({
  overlay: Schema.optionalKey(Overlay)
}).annotate({ description: "What a highlight for this team carries." })

export const Teams = Schema.Struct({
  home: Schema.optionalKey(Team),
  away: Schema.optionalKey(Team)
}).annotate({ description: "Per-team settings of highlights; a team without an entry gets no overlay." })
export type Teams = typeof Teams.Type
export type TeamOverlay = Overlay
