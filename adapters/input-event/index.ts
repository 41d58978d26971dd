import { Effect, Schema } from "effect"
import { edgeTime } from "../../src/buttons/edge-time.ts"
import { gestureOptionsSchema, makeGestureDetector } from "../../src/buttons/gestures.ts"
import type { ButtonEvent } from "../../src/domain/button.ts"
import { type ButtonDecoder, type ButtonSourceDefinition, emptyButtonStats } from "../button-source.ts"
import { keyCodes, keyNames, maxKeyCode } from "./keys.ts"
import { EV_KEY, makeRecordReader } from "./records.ts"

const Key = Schema.Union([
  Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: maxKeyCode })),
  Schema.Literals(keyNames)
])

export const optionsSchema = Schema.Struct({
  keys: Schema.optionalKey(Schema.Array(Key).annotate({
    description: "Keys that are buttons, by code or name (KEY_F13, BTN_0, …); default: every key. The button id is the key code."
  })),
  recordBytes: Schema.Literals([24, 16]).annotate({ description: "struct input_event size: 24 on 64-bit, 16 on 32-bit userspace." })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(24 as const))),
  gestures: Schema.optionalKey(gestureOptionsSchema)
})
export type InputEventOptions = typeof optionsSchema.Type

const press = 1
const release = 0
const autorepeat = 2

/**
 * A Linux input device (`/dev/input/by-id/*-event-*`): USB keypads, foot
 * pedals, presenters. Without an exclusive grab (EVIOCGRAB needs a native
 * module) the keys also reach the console. Edge times are the kernel's.
 */
export const inputEvent: ButtonSourceDefinition<InputEventOptions> = {
  name: "input-event",
  description: "Linux input device events (struct input_event): key press/release edges through the gesture detector",
  summary: "/dev/input",
  link: "device",
  example: "type: input-event\ndevice: /dev/input/by-id/usb-PCsensor_FootSwitch3-event-kbd\noptions:\n  keys: [KEY_A, KEY_B, KEY_C]",
  optionsSchema,
  makeDecoder(options): ButtonDecoder {
    const stats = emptyButtonStats()
    const read = makeRecordReader(options.recordBytes)
    const detector = makeGestureDetector({ ...options.gestures, source: options.source })
    const accepted = options.keys === undefined
      ? undefined
      : new Set(options.keys.map((key) => (typeof key === "number" ? key : keyCodes[key]!)))
    return {
      stats,
      flush: (now) => detector.flush(now),
      nextDeadline: () => detector.nextDeadline(),
      push(input, receivedAt) {
        const events: Array<ButtonEvent> = []
        for (const record of read(input)) {
          stats.messages++
          if (record.type !== EV_KEY || record.value === autorepeat || (accepted !== undefined && !accepted.has(record.code))) {
            stats.ignored++
          } else if ((record.value !== press && record.value !== release) || Number.isNaN(record.at)) {
            stats.bad++
          } else {
            const edge = record.value === press ? "press" : "release"
            events.push(...detector.edge(String(record.code), edge, edgeTime(record.at, receivedAt)))
          }
        }
        return events
      }
    }
  }
}
