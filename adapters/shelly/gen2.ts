import { Option, Schema } from "effect"
import type { ButtonEvent, Gesture } from "../../src/domain/button.ts"
import { edgeTime } from "../../src/buttons/edge-time.ts"
import type { GestureDetector } from "../../src/buttons/gestures.ts"
import type { ButtonDecoderStats } from "../button-source.ts"

export const gen2Suffix = "/events/rpc"

const Seconds = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))

const Payload = Schema.fromJsonString(Schema.Struct({
  method: Schema.String,
  params: Schema.optional(Schema.Struct({
    ts: Schema.optional(Seconds),
    events: Schema.optional(Schema.Array(Schema.Struct({
      component: Schema.optional(Schema.String),
      id: Schema.optional(Schema.Int),
      event: Schema.String,
      ts: Schema.optional(Seconds)
    })))
  }))
}))
const decode = Schema.decodeUnknownOption(Payload)

const gestures: Readonly<Record<string, Gesture>> = {
  single_push: "single",
  double_push: "double",
  triple_push: "triple",
  long_push: "hold"
}
const edges: Readonly<Record<string, "press" | "release">> = { btn_down: "press", btn_up: "release" }

/** Only bounds memory against a flood of invented component names. */
const maxButtons = 1024

const inputComponent = /^input:(\d+)$/

/** `input:2` → "2"; other components (a BLU button behind a gateway) keep their full name. */
const buttonOf = (component: string | undefined, id: number | undefined): string | undefined => {
  if (component !== undefined) return inputComponent.exec(component)?.[1] ?? component
  return id === undefined ? undefined : String(id)
}

/**
 * Gen2+ `NotifyEvent`: finished gestures (`*_push`), or with `rawEdges` the
 * `btn_down`/`btn_up` edges through our own gesture detector — never both, or
 * each press would count twice. Stamped with the device's own clock. A finished
 * gesture with a device stamp carries `event@ts` as its identity (slot: source
 * and button), kept with its item across restarts; a gesture our detector
 * builds from edges has none (it is made of several messages, or of a timer).
 */
export const makeGen2Reader = (source: string, stats: ButtonDecoderStats, detector: GestureDetector | undefined) => {
  // QoS 1 may deliver a message twice; the device's timestamp tells a copy from a new press.
  const lastSeen = new Map<string, string>()
  return (payload: string, receivedAt: number, retained: boolean): Array<ButtonEvent> => {
    const decoded = decode(payload)
    if (Option.isNone(decoded)) {
      stats.bad++
      return []
    }
    const { method, params } = decoded.value
    if (retained || method !== "NotifyEvent") {
      stats.ignored++
      return []
    }
    const out: Array<ButtonEvent> = []
    let used = false
    let duplicate = false
    for (const item of params?.events ?? []) {
      const button = buttonOf(item.component, item.id)
      const gesture = detector === undefined && Object.hasOwn(gestures, item.event) ? gestures[item.event] : undefined
      const edge = detector !== undefined && Object.hasOwn(edges, item.event) ? edges[item.event] : undefined
      if (button === undefined || (gesture === undefined && edge === undefined)) continue
      const seconds = item.ts ?? params?.ts
      const key = seconds === undefined ? undefined : `${item.event}@${seconds}`
      if (key !== undefined) {
        if (lastSeen.get(button) === key) {
          duplicate = true
          continue
        }
        if (lastSeen.size >= maxButtons) lastSeen.clear()
        lastSeen.set(button, key)
      }
      used = true
      const at = edgeTime(seconds === undefined ? undefined : Math.round(seconds * 1000), receivedAt)
      if (gesture !== undefined) {
        const identity = key === undefined ? {} : { identity: { slot: `${source} ${button}`, identity: key } }
        out.push({ source, button, gesture, pressedAt: at, ...identity })
      }
      if (edge !== undefined && detector !== undefined) out.push(...detector.edge(button, edge, at))
    }
    if (duplicate && !used) stats.duplicates++
    else if (!used) stats.ignored++
    return out
  }
}
