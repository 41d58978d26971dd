import { Effect, Option } from "effect"
import { Outcome } from "../domain/outcome.ts"
import type { DeliveryParts } from "./delivery-parts.ts"
import type { KindItem } from "./outbox.ts"

/** An undo names the click it takes back; the moment exists only once that click is delivered. */
export const makeUndoDelivery = ({ client, outbox }: DeliveryParts) =>
  Effect.fnUntraced(function*(item: KindItem<"undo">) {
    const { clickItemId } = item.payload
    const click = yield* outbox.get(clickItemId)
    if (Option.isNone(click)) return Outcome.warning(`nothing to undo: click #${clickItemId} is no longer in the outbox`)
    if (click.value.state === "pending") return Outcome.retry("transient", `waiting for click #${clickItemId} to be delivered`)
    const momentKey = (click.value.result as { momentKey?: string } | null)?.momentKey
    if (momentKey === undefined) return Outcome.warning(`nothing to undo: click #${clickItemId} made no highlight`)
    // A retried delete whose first attempt went through finds nothing: the undo is done.
    yield* client.deleteMoment(momentKey).pipe(Effect.catchTag("NotFound", () => Effect.void))
    return Outcome.delivered({ deletedMomentKey: momentKey, clickItemId })
  })
