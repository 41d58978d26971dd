import { Clock, Effect, Schema, type Scope } from "effect"
import type { OutboxItem, OutboxItems } from "./outbox.ts"
import type { OutboxWriteError } from "./outbox-errors.ts"
import type { Outcome, RetryKind } from "../domain/outcome.ts"
import type { RateBudget } from "./rate-budget.ts"

/** The attempt failed in a way that is retried; `kind` says who paces the next attempt. */
export class Retryable extends Schema.TaggedError<Retryable>()("Retryable", {
  kind: Schema.Literals(["transient", "rate-limited", "unauthorized"]),
  error: Schema.String,
  failedAt: Schema.Number
}) {}

export interface OutcomeRecorderPorts {
  readonly outbox: Pick<OutboxItems["Service"], "markDelivered" | "markWarning" | "markDead" | "markMissed" | "reschedule">
  readonly budget: Pick<RateBudget["Service"], "succeeded" | "rateLimited" | "suspend">
  /** Starts the token probe (once) after a 401. */
  readonly probeToken: Effect.Effect<void, never, Scope.Scope>
}

/**
 * Writes what became of an attempt into the outbox and tells the rate budget: a success resets
 * the token's 429 back-off, a 429 pauses every place, a 401 suspends them all and starts the
 * probe. A retried outcome is recorded (the item stays pending, in doubt if the request may
 * have arrived) and then fails with `Retryable`, so the caller decides when to try again.
 */
export const makeOutcomeRecorder = (ports: OutcomeRecorderPorts) => {
  const { outbox, budget } = ports

  const retryLater = Effect.fnUntraced(function*(item: OutboxItem, kind: RetryKind, error: string, inDoubt: boolean) {
    const now = yield* Clock.currentTimeMillis
    if (kind === "rate-limited") {
      const pauseMs = yield* budget.rateLimited
      yield* Effect.logWarning(`rate limited (429): every place pauses ${pauseMs} ms`)
    } else if (kind === "unauthorized") {
      yield* budget.suspend("the service rejected the token (401)")
      yield* ports.probeToken
    } else {
      yield* Effect.logWarning(`${item.kind} #${item.id} for ${item.place} will be retried: ${error}`)
    }
    yield* outbox.reschedule(item.id, error, now, inDoubt)
    return yield* new Retryable({ kind, error, failedAt: now })
  })

  return Effect.fnUntraced(function*(item: OutboxItem, outcome: Outcome): Effect.fn.Return<void, Retryable | OutboxWriteError, Scope.Scope> {
    switch (outcome._tag) {
      case "Delivered":
        yield* budget.succeeded
        return yield* outbox.markDelivered(item.id, outcome.result)
      case "Warning":
        yield* budget.succeeded
        yield* Effect.logWarning(`${item.kind} for ${item.place}: ${outcome.warning}`)
        return yield* outbox.markWarning(item.id, outcome.warning, outcome.result)
      case "Dead":
        yield* Effect.logError(`${item.kind} #${item.id} for ${item.place} rejected for good, kept as a dead letter: ${outcome.error}`)
        return yield* outbox.markDead(item.id, outcome.error)
      case "Missed":
        yield* Effect.logError(`click #${item.id} for ${item.place} missed: ${outcome.reason}`)
        return yield* outbox.markMissed(item.id, outcome.reason, outcome.result)
      case "Retry":
        return yield* retryLater(item, outcome.kind, outcome.error, outcome.inDoubt ?? false)
    }
  })
}
