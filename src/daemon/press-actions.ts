import { Effect, Schedule } from "effect"
import type { ButtonDecoder } from "../../adapters/button-source.ts"
import { pressFeedback } from "../clicks/press-feedback.ts"
import type { LatePress, PressResult } from "../domain/press-result.ts"
import { OutboxHealth } from "../delivery/outbox.ts"
import { handlePress } from "../clicks/press-handler.ts"
import type { ButtonEvent } from "../domain/button.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { makeAsidePublisher } from "../transport/mqtt-aside.ts"
import { type Route, routesFor } from "./button-routes.ts"

/** How a press came in, when it came in a broker message rather than from a timer's flush. */
export interface PressArrival {
  /** The broker redelivers the message until it is acknowledged: the press is retried until stored. */
  readonly redeliverable: boolean
  /** The broker message's identity, stored with the item (see PressIdentities.storedFrom). */
  readonly receivedAs?: string | undefined
  readonly late?: LatePress | undefined
}

type Feedback = ReturnType<typeof pressFeedback>

const logFeedback = (feedback: Feedback) =>
  feedback.level === "info" ? Effect.logInfo(feedback.text) : feedback.level === "warn" ? Effect.logWarning(feedback.text) : Effect.logError(feedback.text)

/** How often a press the broker keeps is tried again while the outbox refuses it: someone courtside waits on it. */
const pressStoreRetry = Schedule.spaced("1 second")

/**
 * A press the broker would redeliver is retried until stored, then acknowledged (disk full, the file
 * locked by another program: it is stored once the disk is back). Once the disk has failed to store
 * the outbox's writes, none can succeed and the daemon is ending (disk-failure.ts): the press is left
 * unacknowledged, held until the daemon's end, so that the broker hands it to the next run.
 */
const storeRedeliverable = (route: Route, press: ButtonEvent, arrival: PressArrival, diskFailed: () => boolean) => {
  const place = route.settings.place
  return handlePress(route.settings, press, route.action, arrival.receivedAs, arrival.late).pipe(
    Effect.tapError((error) =>
      diskFailed() ? Effect.void : Effect.logError(`${place}: press not stored (${error.message}), not acknowledged to the broker; retrying`)
    ),
    Effect.retry({ schedule: pressStoreRetry, while: () => !diskFailed() }),
    Effect.catch((error) =>
      Effect.andThen(
        Effect.logError(`${place}: press not stored (${error.message}), not acknowledged: the broker gives it to the next run`),
        Effect.never
      )
    )
  )
}

/** A press nobody redelivers (a serial line, a timer's flush) that the outbox refuses is lost: the operator is told why. */
const storeOnce = (route: Route, press: ButtonEvent, late: LatePress | undefined) =>
  handlePress(route.settings, press, route.action, undefined, late).pipe(
    Effect.catch((error) => Effect.succeed<PressResult>({ _tag: "NotStored", error }))
  )

/**
 * What a decoded press does: each place action it is mapped to is handled (outbox, or no event),
 * logged, told on the bus and, where the place has a feedback topic, published there.
 */
export const makePressActions = (routes: ReadonlyMap<string, ReadonlyArray<Route>>) =>
  Effect.gen(function*() {
    const bus = yield* BridgeEvents
    const publishAside = yield* makeAsidePublisher
    const health = yield* OutboxHealth
    // As the scheduler does: once the disk has failed, retrying a write is pointless.
    let diskFailed = false
    yield* Effect.forkScoped(Effect.andThen(health.diskFailure, Effect.sync(() => {
      diskFailed = true
    })))

    const publishFeedback = (topic: string, route: Route, press: ButtonEvent, feedback: Feedback) =>
      publishAside(topic, JSON.stringify({ place: route.settings.place, gesture: press.gesture, button: press.button, pressedAt: press.pressedAt, status: feedback.status, text: feedback.text }))

    /** One route of a press; true when it was a repeat of a press already handled (the device's, not a press). */
    const takeRoute = Effect.fnUntraced(function*(route: Route, press: ButtonEvent, arrival: PressArrival | undefined) {
      const result = arrival?.redeliverable === true
        ? yield* storeRedeliverable(route, press, arrival, () => diskFailed)
        : yield* storeOnce(route, press, arrival?.late)
      const feedback = pressFeedback(route.settings.place, press, result)
      yield* logFeedback(feedback)
      yield* bus.publish({ _tag: "Press", place: route.settings.place, press, result })
      if (result._tag === "Repeat") return true
      if (route.feedbackTopic !== undefined) yield* publishFeedback(route.feedbackTopic, route, press, feedback)
      return false
    })

    return Effect.fnUntraced(function*(decoder: ButtonDecoder, press: ButtonEvent, arrival?: PressArrival) {
      const matching = routesFor(routes, press)
      if (matching.length === 0) return yield* Effect.logDebug(`${press.gesture} on ${press.source}/${press.button}: no action configured`)
      let repeated = false
      for (const route of matching) if (yield* takeRoute(route, press, arrival)) repeated = true
      // Counted once per press, with the repeats the decoder itself recognised.
      if (repeated) decoder.stats.duplicates++
    })
  })

export type OnPress = Effect.Success<ReturnType<typeof makePressActions>>
