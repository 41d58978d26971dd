import { Clock, Effect, FiberSet, Layer, Queue, Schema, Stream } from "effect"
import type { ButtonDecoder } from "../../adapters/button-source.ts"
import { buttonSources } from "../../adapters/button-registry.ts"
import type { LatePress } from "../domain/press-result.ts"
import type { Button, Config } from "../config/schema.ts"
import type { ButtonEvent } from "../domain/button.ts"
import type { LinkState } from "../domain/received.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { PressIdentities } from "../delivery/outbox.ts"
import { redeliveryWindowMs } from "../transport/redeliveries.ts"
import { buttonInputs, type ButtonInput } from "./button-chunks.ts"
import { routesOf } from "./button-routes.ts"
import { flushWhenDue } from "./decoder-timer.ts"
import { makePressActions, type OnPress } from "./press-actions.ts"

/**
 * A press that waited at the broker while the bridge was not listening, if its time is the
 * receive time (a source without a clock of its own): its real time is anywhere since the bridge
 * stopped listening. A device timestamp (Shelly Gen2) is kept as it is.
 */
const latePress = (input: ButtonInput, press: ButtonEvent): LatePress | undefined =>
  input.held !== undefined && press.pressedAt === input.receivedAt ? { after: input.held.since, arrivedAt: input.receivedAt } : undefined

/**
 * A press stored by a process killed before its PUBACK comes back flagged DUP after the
 * restart; its item was written with the message's identity. An outbox that cannot be read
 * answers "not stored": a duplicate highlight is better than a lost one.
 */
const alreadyStored = Effect.fnUntraced(function*(input: ButtonInput) {
  if (input.redelivered !== true || input.receivedAs === undefined) return false
  const identities = yield* PressIdentities
  const now = yield* Clock.currentTimeMillis
  return yield* identities.storedFrom(input.receivedAs, now - redeliveryWindowMs).pipe(Effect.catch(() => Effect.succeed(false)))
})

/** The decoder of a button source, with its options decoded (already checked by the config loader). */
const decoderOf = (button: Button) =>
  Effect.gen(function*() {
    const definition = buttonSources[button.type]!
    const options = yield* Schema.decodeUnknownEffect(definition.optionsSchema)(button.options ?? {}).pipe(Effect.orDie)
    const decoder: ButtonDecoder = definition.makeDecoder({ ...(options as object), source: button.name })
    return decoder
  })

/** One push of raw input: presses decoded and acted on, then the broker told (MQTT) and the timer woken. */
const takeInput = Effect.fnUntraced(function*(decoder: ButtonDecoder, onPress: OnPress, input: ButtonInput, bell: Queue.Queue<void>) {
  if (yield* alreadyStored(input)) {
    yield* Effect.logInfo(`MQTT redelivery on ${input.topic} of a press already stored (before a restart): not stored again`)
    return input.ack?.()
  }
  const presses = decoder.push(input.bytes, input.receivedAt, { topic: input.topic, retained: input.retained })
  for (const press of presses) {
    yield* onPress(decoder, press, { redeliverable: input.ack !== undefined, receivedAs: input.receivedAs, late: latePress(input, press) })
  }
  input.ack?.()
  yield* Queue.offer(bell, undefined)
})

/** Reads one button source for as long as the layer lives. */
const runSource = Effect.fnUntraced(function*(button: Button, onPress: OnPress) {
  const decoder = yield* decoderOf(button)
  const bus = yield* BridgeEvents
  const bell = yield* Queue.sliding<void>(1)
  yield* Effect.forkScoped(flushWhenDue(decoder, bell, (press) => onPress(decoder, press)))
  // Link states come from transport callbacks; published on fibers of the layer's scope, so closing it ends them.
  const runInScope = yield* FiberSet.makeRuntime<never, void, never>()
  const onState = (state: LinkState) => {
    runInScope(bus.publish({ _tag: "ButtonLink", source: button.name, state }))
  }
  yield* Effect.logInfo(`button source ${button.name}: ${button.type}`)
  yield* Stream.runForEach(buttonInputs(button, onState), (input) => takeInput(decoder, onPress, input, bell))
})

/**
 * Starts one reader per configured button source: raw input → decoder →
 * gestures → the place actions they are mapped to → outbox (or, with no event,
 * clear feedback and no request). Decoders that wait for a hold or a
 * multi-press window are flushed by a timer at their next deadline.
 */
export const buttonsLayer = (config: Config) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const onPress = yield* makePressActions(routesOf(config))
    for (const button of config.buttons ?? []) {
      yield* Effect.forkScoped(runSource(button, onPress).pipe(
        Effect.annotateLogs({ button: button.name }),
        Effect.catchCause((cause) => Effect.logError(`button source ${button.name} stopped`, cause))
      ))
    }
  }))
