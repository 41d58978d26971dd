import { Clock, Effect } from "effect"
import { Outcome } from "../domain/outcome.ts"
import type { Slot } from "./deliverer.ts"
import type { DeliveryParts } from "./delivery-parts.ts"
import type { KindItem } from "./outbox.ts"

/**
 * A score entry goes to the place (the service adds it to whatever event runs there), or, once it
 * has waited, to the event it was captured in. Each answer tells which event runs on the place.
 */
export const makeScoreDelivery = ({ client, events, marks }: DeliveryParts) =>
  Effect.fnUntraced(function*(item: KindItem<"score">, slot: Slot) {
    const entry = item.payload
    // Decided again at the send: an entry can cross backlogAfterMs while it waits for its slot.
    const destination = marks.scoreDestination(item, yield* Clock.currentTimeMillis)
    yield* marks.sending(item, destination, slot)
    if (destination !== "place") {
      const answer = yield* client.postEventScore(destination, entry)
      return Outcome.delivered({ eventKey: destination, key: answer.key })
    }
    const answer = yield* client.postPlaceScore(item.place, entry)
    if (answer._tag === "Added") {
      yield* events.learn(item.place, answer.eventKey)
      return Outcome.delivered({ eventKey: answer.eventKey, key: answer.key })
    }
    yield* events.learn(item.place, null)
    return Outcome.warning(`no event running on ${item.place}, the service dropped the entry: ${answer.warning}`, { warning: answer.warning })
  })
