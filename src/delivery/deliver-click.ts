import { Clock, Effect, Option } from "effect"
import { Outcome } from "../domain/outcome.ts"
import { type Slot, Step } from "./deliverer.ts"
import type { DeliveryParts } from "./delivery-parts.ts"
import { footageLasts } from "./footage.ts"
import type { KindItem } from "./outbox.ts"
import { outcomeOf, settleServiceErrors } from "./service-outcome.ts"

/**
 * A click goes to the event it was pressed in; when that was not known at press time, the place's
 * active event is looked up now, in the granted slot, and the click is posted in a slot of its own.
 */
export const makeClickDelivery = ({ client, events, marks }: DeliveryParts) => {
  const post = Effect.fnUntraced(function*(item: KindItem<"click">, eventKey: string, slot: Slot) {
    const body = item.payload
    yield* marks.sending(item, eventKey, slot)
    const answer = yield* client.postClick(eventKey, body)
    const result = { eventKey, momentKey: answer.momentKey }
    const sentAt = yield* Clock.currentTimeMillis
    if (!footageLasts(body, sentAt)) {
      // Sent anyway: if the event has ended meanwhile, all its footage is clippable.
      return Outcome.missed(
        `moment ${answer.momentKey} requested ${Math.round((sentAt - body.timeStamp) / 1000)} s after the press; ` +
          `while an event is open only the last minute of footage can be clipped`,
        result
      )
    }
    if (answer.error !== undefined) {
      return Outcome.warning(`highlight made, but the service did not accept all of it: ${answer.error}`, { ...result, error: answer.error })
    }
    return Outcome.delivered(result)
  })

  return Effect.fnUntraced(function*(item: KindItem<"click">, slot: Slot) {
    if (item.eventKey !== null) return Step.settled(yield* post(item, item.eventKey, slot))
    const eventKey = Option.getOrNull(yield* client.activeEventKey(item.place))
    yield* events.learn(item.place, eventKey)
    if (eventKey === null) return Step.settled(Outcome.warning(`no event running on ${item.place}: the press made no highlight`))
    // The look-up spent the granted slot: posting at once would be a second request in it,
    // a 429 at a 1 request/s limit, on every retry, until the click is missed.
    return Step.nextRequest(
      marks.mark(item, eventKey),
      (next) => post(item, eventKey, next).pipe(Effect.map(Step.settled), settleServiceErrors(outcomeOf))
    )
  })
}
