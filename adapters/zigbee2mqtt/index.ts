import { Option, Schema } from "effect"
import type { ButtonEvent } from "../../src/domain/button.ts"
import { type ButtonDecoder, type ButtonSourceDefinition, emptyButtonStats, nothingPending } from "../button-source.ts"
import { parseAction } from "./action.ts"

export const optionsSchema = Schema.Struct({})
export type Zigbee2mqttOptions = typeof optionsSchema.Type

/** `action` is null or "" when zigbee2mqtt clears it after a press, absent in battery/linkquality reports. */
const StatePayload = Schema.fromJsonString(Schema.Struct({ action: Schema.optional(Schema.NullOr(Schema.String)) }))
const decodeState = Schema.decodeUnknownOption(StatePayload)

const actionSuffix = "/action"

/**
 * With `output: attribute_and_json` zigbee2mqtt publishes each press twice,
 * as JSON on `<name>` and as a plain string on `<name>/action`, within a few
 * milliseconds. A real second press of the same kind takes far longer.
 */
const sameDeliveryMs = 100

interface Seen {
  readonly action: string
  readonly plain: boolean
  readonly at: number
}

export const zigbee2mqtt: ButtonSourceDefinition<Zigbee2mqttOptions> = {
  name: "zigbee2mqtt",
  description: "Zigbee buttons through zigbee2mqtt: `action` in zigbee2mqtt/<name> (JSON) or zigbee2mqtt/<name>/action (plain)",
  summary: "MQTT",
  link: "mqtt",
  example: "type: zigbee2mqtt\nmqtt:\n  topics: [zigbee2mqtt/court4-remote]",
  optionsSchema,
  makeDecoder(options): ButtonDecoder {
    const stats = emptyButtonStats()
    const text = new TextDecoder()
    const lastSeen = new Map<string, Seen>()

    /** The action text, "" when there is none, null when the payload is malformed. */
    const readAction = (payload: string, plain: boolean): string | null => {
      if (plain) return payload.trim()
      const state = decodeState(payload)
      if (Option.isNone(state)) return null
      return state.value.action ?? ""
    }

    return {
      ...nothingPending,
      stats,
      push(input, receivedAt, meta): Array<ButtonEvent> {
        stats.messages++
        const topic = meta?.topic ?? ""
        const plain = topic.endsWith(actionSuffix)
        const action = readAction(text.decode(input), plain)
        if (action === null) {
          stats.bad++
          return []
        }
        // Retained `action` is a press from the past, replayed on subscribe.
        if (meta?.retained === true || action === "") {
          stats.ignored++
          return []
        }
        const parsed = parseAction(action)
        if (parsed === undefined) {
          stats.ignored++
          return []
        }
        const device = plain ? topic.slice(0, -actionSuffix.length) : topic
        const previous = lastSeen.get(device)
        lastSeen.set(device, { action, plain, at: receivedAt })
        if (previous !== undefined && previous.plain !== plain && previous.action === action &&
          Math.abs(receivedAt - previous.at) <= sameDeliveryMs) {
          stats.duplicates++
          return []
        }
        return [{ source: options.source, button: parsed.button, gesture: parsed.gesture, pressedAt: receivedAt }]
      }
    }
  }
}
