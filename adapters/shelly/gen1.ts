import { Option, Schema } from "effect"
import type { ButtonEvent, Gesture } from "../../src/domain/button.ts"
import type { ButtonDecoderStats } from "../button-source.ts"

/** `shellies/<device-id>/input_event/<n>`, or `<custom prefix>/input_event/<n>`. */
export const gen1Topic = /\/input_event\/(?<input>\d+)$/

const Payload = Schema.fromJsonString(Schema.Struct({
  event: Schema.String,
  event_cnt: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
}))
const decode = Schema.decodeUnknownOption(Payload)

/** Long-short combinations (`SL`, `LS`) and the empty event after boot are not gestures. */
const gestures: Readonly<Record<string, Gesture>> = { S: "single", SS: "double", SSS: "triple", L: "hold" }

/** Most venues have a handful of buttons; the cap only bounds memory against a flood of invented topics. */
const maxTopics = 1024

/**
 * Gen1 republishes `input_event` with the last event (on reconnect, retained,
 * and with status updates); only a changed `event_cnt` is a new press. The
 * Gen1 payload has no timestamp, so the press is stamped on receipt. The count
 * seen last is kept here for this process; the press carries it as its identity
 * (slot: source and topic) so that it outlives a restart with the press's item.
 */
export const makeGen1Reader = (source: string, stats: ButtonDecoderStats) => {
  const lastCount = new Map<string, number>()
  return (payload: string, topic: string, input: string, receivedAt: number, retained: boolean): Array<ButtonEvent> => {
    const decoded = decode(payload)
    if (Option.isNone(decoded)) {
      stats.bad++
      return []
    }
    const { event, event_cnt } = decoded.value
    const previous = lastCount.get(topic)
    lastCount.delete(topic)
    if (lastCount.size >= maxTopics) lastCount.delete(lastCount.keys().next().value!)
    lastCount.set(topic, event_cnt)
    const gesture = Object.hasOwn(gestures, event) ? gestures[event] : undefined
    if (retained || gesture === undefined) {
      stats.ignored++
      return []
    }
    if (previous === event_cnt) {
      stats.duplicates++
      return []
    }
    return [{ source, button: input, gesture, pressedAt: receivedAt, identity: { slot: `${source} ${topic}`, identity: String(event_cnt) } }]
  }
}
