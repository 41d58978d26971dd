import { Effect } from "effect"
import type { Outcome } from "../domain/outcome.ts"
import type { Slot, Step } from "./deliverer.ts"
import type { OutboxStorageError } from "./outbox-errors.ts"
import type { OutboxItem } from "./outbox.ts"
import { type RateBudget, slotOf } from "./rate-budget.ts"

export type SlotBudget = Pick<RateBudget["Service"], "acquire" | "sending" | "finished">

/**
 * Runs one delivery's requests, each in a rate slot of its own: the first in the slot the scheduler
 * was granted, every further one (after a look-up or a read-back) in a slot taken here once the
 * previous one is settled and the next request's in-doubt mark is written. Every slot is settled
 * here, whatever its request came to, so the deliverer never touches the budget.
 */
export const makeRequestsInSlots = (budget: SlotBudget) => {
  const slot = (markedFor: string | undefined): Slot => ({ markedFor, leaving: budget.sending })
  return Effect.fnUntraced(function*(
    item: OutboxItem,
    first: (slot: Slot) => Effect.Effect<Step, OutboxStorageError>,
    markedFor: string | undefined,
    past = false
  ): Effect.fn.Return<Outcome, OutboxStorageError> {
    let step = yield* first(slot(markedFor)).pipe(Effect.ensuring(budget.finished))
    while (step._tag === "NextRequest") {
      const marked = yield* step.mark
      yield* budget.acquire(...slotOf(item, past))
      step = yield* step.send(slot(marked)).pipe(Effect.ensuring(budget.finished))
    }
    return step.outcome
  })
}
