import { Result } from "effect"
import { gen1Topic } from "../../../adapters/shelly/gen1.ts"
import { gen2Suffix } from "../../../adapters/shelly/gen2.ts"
import type { ButtonDecoder } from "../../../adapters/button-source.ts"
import type { ButtonEvent } from "../../domain/button.ts"
import { nameFrom } from "./button-entry.ts"
import { decoderOf, type PressFound } from "./button-press.ts"

/** Where zigbee2mqtt devices and Shelly buttons (Gen1, and Gen2 under their default prefix, the device id) publish. */
export const captureTopics = ["zigbee2mqtt/#", "shellies/#", `+${gen2Suffix}`] as const

/** One message from the broker, stamped when it arrived. */
export interface MqttArrival {
  readonly topic: string
  readonly payload: Uint8Array
  readonly retained: boolean
  readonly receivedAt: number
}

const zigbeePrefix = "zigbee2mqtt/"
const actionSuffix = "/action"
// The bridge's own state and logs, and the devices' commands and availability: never a press.
const notDeviceState = /^zigbee2mqtt\/bridge(\/|$)|\/(set|get|availability)(\/.*)?$/u

const text = new TextDecoder()

/** The action word itself, for the page and to tell `single` (any button) from `1_single` (button 1). */
const actionOf = (payload: string, plain: boolean): string => {
  if (plain) return payload.trim()
  try {
    return String((JSON.parse(payload) as { action?: unknown }).action ?? "")
  } catch {
    return ""
  }
}

const zigbeePress = (decoder: ButtonDecoder, message: MqttArrival): PressFound | undefined => {
  if (notDeviceState.test(message.topic)) return undefined
  const press = decoder.push(message.payload, message.receivedAt, { topic: message.topic, retained: message.retained })[0]
  if (press === undefined) return undefined
  const plain = message.topic.endsWith(actionSuffix)
  const device = plain ? message.topic.slice(0, -actionSuffix.length) : message.topic
  const friendly = device.slice(zigbeePrefix.length)
  const action = actionOf(text.decode(message.payload), plain)
  // The decoder says button "1" for a bare `single` too: only an action that names a button binds one.
  const namesButton = press.button !== "1" || /(^|_)1(_|$)/u.test(action)
  const name = nameFrom(friendly, "zigbee2mqtt-button")
  return {
    type: "zigbee2mqtt",
    name,
    // A device publishing only the plain string (output: attribute) is read on <name>/action.
    entry: { name, type: "zigbee2mqtt", mqtt: { topics: [plain ? message.topic : device] } },
    ...(namesButton ? { button: press.button } : {}),
    gesture: press.gesture,
    described: `zigbee2mqtt device ${friendly}, action ${action}`
  }
}

const lastLevel = (prefix: string) => prefix.slice(prefix.lastIndexOf("/") + 1)

const shellyFound = (press: ButtonEvent, device: string, topic: string, generation: string): PressFound => {
  const name = nameFrom(device, "shelly-button")
  return {
    type: "shelly",
    name,
    entry: { name, type: "shelly", mqtt: { topics: [topic] } },
    button: press.button,
    gesture: press.gesture,
    described: `Shelly ${device} (${generation}), input ${press.button}, ${press.gesture}`
  }
}

const shellyPress = (decoder: ButtonDecoder, message: MqttArrival): PressFound | undefined => {
  const gen1 = gen1Topic.exec(message.topic)
  if (gen1 === null && !message.topic.endsWith(gen2Suffix)) return undefined
  const press = decoder.push(message.payload, message.receivedAt, { topic: message.topic, retained: message.retained })[0]
  if (press === undefined) return undefined
  if (gen1 !== null) {
    // Every input of the device: the actions line names the input.
    const prefix = message.topic.slice(0, gen1.index)
    return shellyFound(press, lastLevel(prefix), `${prefix}/input_event/+`, "Gen1")
  }
  return shellyFound(press, lastLevel(message.topic.slice(0, -gen2Suffix.length)), message.topic, "Gen2")
}

const mustDecode = (result: ReturnType<typeof decoderOf>): ButtonDecoder => {
  if (Result.isFailure(result)) throw new Error(`capture decoder: ${result.failure.join("; ")}`)
  return result.success
}

/**
 * Reads each message with its source type's own decoder (zigbee2mqtt, shelly): retained
 * messages, reports without a press (battery, link quality) and the bridge's topics give nothing.
 */
export const makeMqttPressReader = (): ((message: MqttArrival) => PressFound | undefined) => {
  const zigbee = mustDecode(decoderOf({ name: "capture", type: "zigbee2mqtt", mqtt: { topics: [captureTopics[0]] } }))
  const shelly = mustDecode(decoderOf({ name: "capture", type: "shelly", mqtt: { topics: [captureTopics[1], captureTopics[2]] } }))
  return (message) =>
    message.topic.startsWith(zigbeePrefix) ? zigbeePress(zigbee, message) : shellyPress(shelly, message)
}
