import { Deferred, Effect, Queue, Result, Stream } from "effect"
import type { ButtonDecoder } from "../../../adapters/button-source.ts"
import { flushWhenDue } from "../../daemon/decoder-timer.ts"
import type { ButtonEvent } from "../../domain/button.ts"
import type { LinkState } from "../../domain/received.ts"
import type { PressFound } from "./button-press.ts"
import { brokerArrivals, type CaptureBroker } from "./capture-broker.ts"
import { fitToConfig } from "./config-fit.ts"
import type { ConfiguredLinks } from "./configured-links.ts"
import { makeMqttPressReader } from "./mqtt-press.ts"
import type { StreamSource } from "./stream-sources.ts"

/** One link of a capture as the page shows it while it waits. */
export interface LinkView {
  readonly link: "mqtt" | "serial" | "device" | "gpio"
  readonly target: string
  readonly state: LinkState["_tag"]
  readonly detail?: string
}

/** What a capture has seen so far; written by its fibers, read by the page's polls. */
export interface CaptureState {
  pressed: PressFound | undefined
  readonly links: Map<string, LinkView>
  /** A press seen that the config could not take as it is (the page says why, and the capture goes on). */
  unusable: string | undefined
}

/** Everything a capture listens on, checked before it starts. */
export interface CapturePlan {
  readonly broker: CaptureBroker | undefined
  readonly streams: ReadonlyArray<{ readonly source: StreamSource; readonly decoder: ButtonDecoder; readonly device: string }>
  readonly configured: ConfiguredLinks["buttons"]
}

const noteLink = (state: CaptureState, link: LinkView["link"]) => (linkState: LinkState) => {
  const detail = linkState._tag === "disconnected" ? linkState.reason : undefined
  state.links.set(link, { link, target: linkState.target, state: linkState._tag, ...(detail === undefined ? {} : { detail }) })
}

type Found = (press: PressFound) => Effect.Effect<void>

const runBroker = (broker: CaptureBroker, state: CaptureState, found: Found) => {
  const read = makeMqttPressReader()
  return Stream.runForEach(brokerArrivals(broker, noteLink(state, "mqtt")), (message) => {
    const press = read(message)
    return press === undefined ? Effect.void : found(press)
  })
}

const runStream = Effect.fnUntraced(function*(stream: CapturePlan["streams"][number], state: CaptureState, found: Found) {
  const { source, decoder } = stream
  const onPress = (press: ButtonEvent) =>
    found({
      type: source.entry.type,
      name: source.entry.name,
      entry: source.entry,
      button: press.button,
      gesture: press.gesture,
      described: source.describe(press)
    })
  // Gestures built from edges (input devices, GPIO) are due after their multi-press window.
  const bell = yield* Queue.sliding<void>(1)
  yield* Effect.forkScoped(flushWhenDue(decoder, bell, onPress))
  yield* Stream.runForEach(source.open(stream.device, noteLink(state, source.link)), (chunk) =>
    Effect.gen(function*() {
      for (const press of decoder.push(chunk.bytes, chunk.receivedAt)) yield* onPress(press)
      yield* Queue.offer(bell, undefined)
    }))
})

/**
 * Listens on every source of the plan at once until the first press the config can take, then
 * closes them all (the scope ends): the port, the input device and the broker are free again.
 */
export const runCapture = (plan: CapturePlan, state: CaptureState): Effect.Effect<void> =>
  Effect.scoped(Effect.gen(function*() {
    const done = yield* Deferred.make<PressFound>()
    const found: Found = (press) =>
      Effect.suspend(() => {
        const fitted = fitToConfig(press, plan.configured)
        if (Result.isSuccess(fitted)) return Deferred.succeed(done, fitted.success).pipe(Effect.asVoid)
        state.unusable = `${press.described}: ${fitted.failure.join("; ")}`
        return Effect.void
      })
    if (plan.broker !== undefined) yield* Effect.forkScoped(runBroker(plan.broker, state, found))
    for (const stream of plan.streams) yield* Effect.forkScoped(runStream(stream, state, found))
    state.pressed = yield* Deferred.await(done)
  }))
