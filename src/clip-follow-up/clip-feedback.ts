import { Effect, Layer, Stream } from "effect"
import type { Config } from "../config/schema.ts"
import type { ClipSettled } from "../domain/follow-up.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { makeAsidePublisher } from "../transport/mqtt-aside.ts"
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

type ClickSettings = NonNullable<Config["places"][number]["clicks"]>

/** What a place publishes when a clip outcome is known: the feedback message, the device's signal. */
export const clipMessages = (clicks: ClickSettings | undefined, settled: ClipSettled): Array<{ readonly topic: string; readonly payload: string }> => {
  const signal = clicks?.clipSignal
  const devicePayload = signal === undefined ? undefined
    : settled.outcome === "clip-ready" ? signal.clipReady
    : settled.outcome === "no-clip" ? signal.noClip
    : undefined
  return [
    ...(clicks?.feedbackTopic === undefined ? [] : [{ topic: clicks.feedbackTopic, payload: JSON.stringify(clipFeedbackMessage(settled)) }]),
    ...(signal === undefined || devicePayload === undefined ? [] : [{ topic: signal.topic, payload: JSON.stringify(devicePayload) }])
  ]
}

/** Publishes clip outcomes on the feedback topics and device signals of the places that have them. */
export const clipFeedbackLayer = (config: Config) => {
  const settings = new Map(config.places.flatMap((p) =>
    p.clicks?.feedbackTopic === undefined && p.clicks?.clipSignal === undefined ? [] : [[p.key, p.clicks] as const]
  ))
  if (settings.size === 0) return Layer.empty
  return Layer.effectDiscard(Effect.gen(function*() {
    const publishAside = yield* makeAsidePublisher
    const events = yield* (yield* BridgeEvents).subscribe
    yield* Effect.forkScoped(events.pipe(
      Stream.runForEach((event) =>
        event._tag !== "ClipSettled" ? Effect.void : Effect.forEach(clipMessages(settings.get(event.place), event), ({ topic, payload }) =>
          publishAside(topic, payload), { discard: true })
      )
    ))
  }))
}
