import { Effect, Option } from "effect"
import { Outcome } from "../domain/outcome.ts"
import type { ServiceError } from "../service/errors.ts"
import { type Slot, Step } from "./deliverer.ts"
import type { OutboxStorageError } from "./outbox-errors.ts"
import type { DeliveryParts } from "./delivery-parts.ts"
import type { OutboxItem } from "./outbox.ts"
import { reconcile } from "./reconcile.ts"
import { settleServiceErrors, stillInDoubt } from "./service-outcome.ts"

/**
 * An item in doubt from an earlier attempt (the request may have reached the service) is read back
 * before it is resent. The granted slot pays for the first request (read-back or look-up); every
 * further request of this delivery is a next request, in a slot of its own.
 */
export const makeReadBack = (
  { client, events, marks }: DeliveryParts,
  resend: (item: OutboxItem, slot: Slot) => Effect.Effect<Step, OutboxStorageError>
) => {
  /**
   * The event an in-doubt item would be in: where it was sent, else where it was captured, else
   * the live one. After a restart nothing may be known yet (the run's first entries are captured
   * before any answer names the event): then the live event is looked up, because resending
   * unread could apply the entry twice.
   */
  const eventOfDoubt = Effect.fnUntraced(function*(item: OutboxItem) {
    if (item.sentTo !== null && item.sentTo !== "place") return { eventKey: item.sentTo, lookedUp: false }
    if (item.eventKey !== null) return { eventKey: item.eventKey, lookedUp: false }
    const known = yield* events.current(item.place)
    if (known !== undefined) return { eventKey: known.eventKey, lookedUp: false }
    const live = Option.getOrNull(yield* client.activeEventKey(item.place))
    yield* events.learn(item.place, live)
    return { eventKey: live, lookedUp: true }
  })

  const readBack = Effect.fnUntraced(function*(item: OutboxItem, eventKey: string | null): Effect.fn.Return<Step, ServiceError> {
    const found = yield* reconcile(client, item, eventKey).pipe(
      // An event that is gone cannot hold the item: send it, and let the service say what it thinks.
      Effect.catchTag("NotFound", () => Effect.succeed(Option.none()))
    )
    if (Option.isSome(found)) {
      yield* Effect.logInfo(`${item.kind} #${item.id} for ${item.place} was already received by the service: not resent`)
      return Step.settled(Outcome.delivered(found.value))
    }
    return Step.nextRequest(marks.beforeSlot(item), (slot) => resend(item, slot))
  })

  return (item: OutboxItem): Effect.Effect<Step, OutboxStorageError> =>
    Effect.gen(function*() {
      const doubt = yield* eventOfDoubt(item)
      if (!doubt.lookedUp || doubt.eventKey === null) return yield* readBack(item, doubt.eventKey)
      const eventKey = doubt.eventKey
      return Step.nextRequest(Effect.succeed(undefined), () => readBack(item, eventKey).pipe(settleServiceErrors(stillInDoubt)))
    }).pipe(settleServiceErrors(stillInDoubt))
}
