import { Schema } from "effect"
import { gestureOptionsSchema, makeGestureDetector } from "../../src/buttons/gestures.ts"
import { type ButtonDecoder, type ButtonSourceDefinition, emptyButtonStats } from "../button-source.ts"
import { gen1Topic, makeGen1Reader } from "./gen1.ts"
import { gen2Suffix, makeGen2Reader } from "./gen2.ts"

export const optionsSchema = Schema.Struct({
  rawEdges: Schema.optionalKey(Schema.Boolean.annotate({
    description: "Gen2+: build gestures from btn_down/btn_up with our own detector instead of the device's *_push events."
  })),
  gestures: Schema.optionalKey(gestureOptionsSchema.annotate({ description: "Gesture timing for rawEdges." }))
})
export type ShellyOptions = typeof optionsSchema.Type

export const shelly: ButtonSourceDefinition<ShellyOptions> = {
  name: "shelly",
  description: "Shelly buttons over MQTT: Gen1 <prefix>/input_event/<n>, Gen2+ <device-id>/events/rpc (NotifyEvent)",
  summary: "MQTT",
  link: "mqtt",
  example: "type: shelly\nmqtt:\n  topics: [shellies/shellybutton1-C45BBE6A1B2C/input_event/+]",
  optionsSchema,
  makeDecoder(options): ButtonDecoder {
    const stats = emptyButtonStats()
    const text = new TextDecoder()
    const detector = options.rawEdges === true ? makeGestureDetector({ ...options.gestures, source: options.source }) : undefined
    const gen1 = makeGen1Reader(options.source, stats)
    const gen2 = makeGen2Reader(options.source, stats, detector)
    return {
      stats,
      flush: (now) => detector?.flush(now) ?? [],
      nextDeadline: () => detector?.nextDeadline(),
      push(input, receivedAt, meta) {
        stats.messages++
        const topic = meta?.topic
        const retained = meta?.retained === true
        const input1 = topic === undefined ? undefined : gen1Topic.exec(topic)?.groups?.input
        if (topic !== undefined && input1 !== undefined) return gen1(text.decode(input), topic, input1, receivedAt, retained)
        if (topic === undefined || topic.endsWith(gen2Suffix)) return gen2(text.decode(input), receivedAt, retained)
        // Status topics of the same devices (`online`, `announce`, `input/0`) carry no gestures.
        stats.ignored++
        return []
      }
    }
  }
}
