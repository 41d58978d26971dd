import { Clock, Effect, Layer, Queue, Schedule, Schema, Stream } from "effect"
import type { ButtonDecoder } from "../../adapters/button-source.ts"
import { buttonSources } from "../../adapters/button-registry.ts"
import { pressFeedback } from "../clicks/press-feedback.ts"
import type { LatePress } from "../domain/press-result.ts"
import { clickSettingsOf } from "../clicks/place-click-settings.ts"
import { handlePress, type PlaceClickSettings, type PressAction } from "../clicks/press-handler.ts"
import type { Button, Config } from "../config/schema.ts"
import type { ButtonEvent } from "../domain/button.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { Outbox } from "../delivery/outbox.ts"
import { MqttConnection } from "../transport/mqtt.ts"
import { redeliveryWindowMs } from "../transport/redeliveries.ts"
import { buttonInputs, type ButtonInput } from "./button-chunks.ts"

/**
 * A press that waited at the broker while the bridge was not listening, if its time is the
 * receive time (a source without a clock of its own): its real time is anywhere since the bridge
 * stopped listening. A device timestamp (Shelly Gen2) is kept as it is.
 */
const latePress = (input: ButtonInput, press: ButtonEvent): LatePress | undefined =>
  input.held !== undefined && press.pressedAt === input.receivedAt ? { after: input.held.since, arrivedAt: input.receivedAt } : undefined

interface Route {
  readonly settings: PlaceClickSettings
  readonly action: PressAction
  readonly button: string | undefined
  readonly gesture: string
  readonly feedbackTopic: string | undefined
}

/** Every (source, button, gesture) → place action the config names. */
const routesOf = (config: Config): ReadonlyMap<string, ReadonlyArray<Route>> => {
  const routes = new Map<string, Array<Route>>()
  for (const place of config.places) {
    const settings = clickSettingsOf(place)
    for (const action of place.actions ?? []) {
      const list = routes.get(action.source) ?? []
      list.push({
        settings,
        action: action.do === "undo" ? { do: "undo" } : { do: "highlight", team: action.team ?? "none" },
        button: action.button,
        gesture: action.gesture,
        feedbackTopic: place.clicks?.feedbackTopic
      })
      routes.set(action.source, list)
    }
  }
  return routes
}

/**
 * Starts one reader per configured button source: raw input → decoder →
 * gestures → the place actions they are mapped to → outbox (or, with no event,
 * clear feedback and no request). Decoders that wait for a hold or a
 * multi-press window are flushed by a timer at their next deadline.
 */
export const buttonsLayer = (config: Config) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const bus = yield* BridgeEvents
    const mqtt = yield* MqttConnection
    const outbox = yield* Outbox
    const routes = routesOf(config)

    const onPress = Effect.fnUntraced(function*(
      decoder: ButtonDecoder,
      press: ButtonEvent,
      redeliverable = false,
      receivedAs?: string,
      late?: LatePress
    ) {
      const matching = (routes.get(press.source) ?? []).filter((r) =>
        r.gesture === press.gesture && (r.button === undefined || r.button === press.button)
      )
      if (matching.length === 0) return yield* Effect.logDebug(`${press.gesture} on ${press.source}/${press.button}: no action configured`)
      let repeated = false
      for (const route of matching) {
        // A press the broker would redeliver is retried until stored, then acknowledged.
        const result = redeliverable
          ? yield* handlePress(route.settings, press, route.action, receivedAs, late).pipe(
            Effect.flatMap((r) => r._tag === "NotStored" ? Effect.fail(r.error) : Effect.succeed(r)),
            Effect.tapError((reason) => Effect.logError(`${route.settings.place}: press not stored (${reason}), not acknowledged to the broker; retrying`)),
            Effect.retry(Schedule.spaced("1 second")),
            Effect.orDie
          )
          : yield* handlePress(route.settings, press, route.action, undefined, late)
        const feedback = pressFeedback(route.settings.place, press, result)
        yield* feedback.level === "info" ? Effect.logInfo(feedback.text) : feedback.level === "warn" ? Effect.logWarning(feedback.text) : Effect.logError(feedback.text)
        yield* bus.publish({ _tag: "Press", place: route.settings.place, press, result })
        // A repeat is the device's, not a press: no feedback.
        if (result._tag === "Repeat") {
          repeated = true
          continue
        }
        if (route.feedbackTopic !== undefined) {
          const message = JSON.stringify({ place: route.settings.place, gesture: press.gesture, button: press.button, pressedAt: press.pressedAt, status: feedback.status, text: feedback.text })
          // Feedback is a courtesy: never let a broker outage hold up the next press.
          yield* Effect.forkDetach(mqtt.publish(route.feedbackTopic, message, { qos: 0 }).pipe(Effect.timeout("2 seconds"), Effect.ignore))
        }
      }
      // Counted once per press, with the repeats the decoder itself recognised.
      if (repeated) decoder.stats.duplicates++
    })

    /**
     * A press stored by a process killed before its PUBACK comes back flagged DUP after the
     * restart; its item was written with the message's identity. An outbox that cannot be read
     * answers "not stored": a duplicate highlight is better than a lost one.
     */
    const alreadyStored = (input: ButtonInput) =>
      input.redelivered === true && input.receivedAs !== undefined
        ? Effect.flatMap(Clock.currentTimeMillis, (now) => outbox.storedFrom(input.receivedAs!, now - redeliveryWindowMs)).pipe(
          Effect.catch(() => Effect.succeed(false))
        )
        : Effect.succeed(false)

    const runSource = Effect.fnUntraced(function*(button: Button) {
      const definition = buttonSources[button.type]!
      const options = yield* Schema.decodeUnknownEffect(definition.optionsSchema)(button.options ?? {}).pipe(Effect.orDie)
      const decoder: ButtonDecoder = definition.makeDecoder({ ...(options as object), source: button.name })
      const timerBell = yield* Queue.sliding<void>(1)
      const flushWhenDue = Effect.gen(function*() {
        while (true) {
          const deadline = decoder.nextDeadline()
          if (deadline === undefined) {
            yield* Queue.take(timerBell)
            continue
          }
          yield* Queue.take(timerBell).pipe(Effect.timeoutOption(Math.max(0, deadline - Date.now())))
          for (const press of decoder.flush(Date.now())) yield* onPress(decoder, press)
        }
      })
      yield* Effect.forkScoped(flushWhenDue)
      const onState = (state: Parameters<Parameters<typeof buttonInputs>[1]>[0]) =>
        Effect.runFork(bus.publish({ _tag: "ButtonLink", source: button.name, state }))
      yield* Effect.logInfo(`button source ${button.name}: ${button.type}`)
      yield* Stream.runForEach(buttonInputs(button, onState), (input) =>
        Effect.gen(function*() {
          if (yield* alreadyStored(input)) {
            yield* Effect.logInfo(`MQTT redelivery on ${input.topic} of a press already stored (before a restart): not stored again`)
            return input.ack?.()
          }
          const presses = decoder.push(input.bytes, input.receivedAt, { topic: input.topic, retained: input.retained })
          for (const press of presses) yield* onPress(decoder, press, input.ack !== undefined, input.receivedAs, latePress(input, press))
          input.ack?.()
          yield* Queue.offer(timerBell, undefined)
        }))
    })

    for (const button of config.buttons ?? []) {
      yield* Effect.forkScoped(runSource(button).pipe(
        Effect.annotateLogs({ button: button.name }),
        Effect.catchCause((cause) => Effect.logError(`button source ${button.name} stopped`, cause))
      ))
    }
  }))
