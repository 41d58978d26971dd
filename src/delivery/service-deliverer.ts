import { Effect, Layer } from "effect"
import { ActiveEvents } from "../events/active-events.ts"
import { ServiceClient } from "../service/client.ts"
import { makeClickDelivery } from "./deliver-click.ts"
import { makeScoreDelivery } from "./deliver-score.ts"
import { makeUndoDelivery } from "./deliver-undo.ts"
import { Deliverer, type Slot, Step } from "./deliverer.ts"
import type { OutboxStorageError } from "./outbox-errors.ts"
import type { DeliveryParts } from "./delivery-parts.ts"
import { makeInDoubtMarks } from "./in-doubt-marks.ts"
import { type OutboxItem, OutboxItems } from "./outbox.ts"
import { makeReadBack } from "./read-back.ts"
import { outcomeOf, settleServiceErrors } from "./service-outcome.ts"

export interface DelivererOptions {
  /**
   * A score entry older than this has waited (outage, backlog): it goes to the
   * event that was live when it was captured, not to whatever runs on the place now.
   */
  readonly backlogAfterMs?: number
}

/** Sends an item by its kind (deliver-score.ts, deliver-click.ts, deliver-undo.ts); a service error is its outcome. */
const sendByKind = (parts: DeliveryParts) => {
  const score = makeScoreDelivery(parts)
  const click = makeClickDelivery(parts)
  const undo = makeUndoDelivery(parts)
  return (item: OutboxItem, slot: Slot): Effect.Effect<Step, OutboxStorageError> =>
    (item.kind === "score"
      ? Effect.map(score(item, slot), Step.settled)
      : item.kind === "undo"
      ? Effect.map(undo(item), Step.settled)
      : click(item, slot)).pipe(settleServiceErrors(outcomeOf))
}

/** Maps outbox items to service calls, and service errors to outcomes; the scheduler runs each request in its slot. */
export const serviceDeliverer = (options: DelivererOptions = {}) =>
  Layer.effect(Deliverer, Effect.gen(function*() {
    const client = yield* ServiceClient
    const outbox = yield* OutboxItems
    const marks = makeInDoubtMarks(outbox, options.backlogAfterMs ?? 10_000)
    const parts: DeliveryParts = { client, outbox, events: yield* ActiveEvents, marks }
    const send = sendByKind(parts)
    const readBack = makeReadBack(parts, send)
    return Deliverer.of({
      markBeforeSlot: marks.beforeSlot,
      // In doubt from an earlier attempt (not this one's own mark): read back before resending.
      deliver: (item, slot) => item.sentAt !== null && slot.markedFor === undefined && item.kind !== "undo" ? readBack(item) : send(item, slot),
      probe: client.sports.pipe(Effect.as(true), Effect.catch(() => Effect.succeed(false)))
    })
  }))
