import { Effect, Layer, Stream } from "effect"
import type { Config } from "../config/schema.ts"
import type { ClipSettled } from "../delivery/follow-up.ts"
import { BridgeEvents } from "../status/bridge-events.ts"
import { MqttConnection } from "../transport/mqtt.ts"
import { clipOutcomeText } from "./outcome-text.ts"

/**
 * The message a place's feedback topic gets when a followed click's outcome is known, so a
 * button's LED or a courtside screen can confirm the clip (or say it will not come). Beside the
 * press messages on the same topic, told apart by `status`: `clip-ready`, `no-clip`, `deleted`,
 * `unchecked`.
 */
export const clipFeedbackMessage = (settled: ClipSettled) => ({
  place: settled.place,
  clickItemId: settled.clickItemId,
  momentKey: settled.momentKey,
  pressedAt: settled.pressedAt,
  status: settled.outcome,
  text: `${settled.place}: highlight #${settled.clickItemId} → ${clipOutcomeText({ ...settled, detail: settled.detail })}`,
  ...(settled.detail.angles === undefined ? {} : { angles: settled.detail.angles }),
  ...(settled.detail.videoURL === undefined ? {} : { videoURL: settled.detail.videoURL }),
  ...(settled.detail.thumbnailURL === undefined ? {} : { thumbnailURL: settled.detail.thumbnailURL })
})

/** Publishes clip outcomes on the feedback topics of the places that have one. */
export const clipFeedbackLayer = (config: Config) => {
  const topics = new Map(config.places.flatMap((p) => p.clicks?.feedbackTopic === undefined ? [] : [[p.key, p.clicks.feedbackTopic] as const]))
  if (topics.size === 0) return Layer.empty
  return Layer.effectDiscard(Effect.gen(function*() {
    const mqtt = yield* MqttConnection
    const events = yield* (yield* BridgeEvents).subscribe
    yield* Effect.forkScoped(events.pipe(
      Stream.runForEach((event) => {
        if (event._tag !== "ClipSettled") return Effect.void
        const topic = topics.get(event.place)
        if (topic === undefined) return Effect.void
        // A courtesy, as the press messages: never let a broker outage hold anything up.
        return Effect.forkDetach(
          mqtt.publish(topic, JSON.stringify(clipFeedbackMessage(event)), { qos: 0 }).pipe(Effect.timeout("2 seconds"), Effect.ignore)
        )
      })
    ))
  }))
}
