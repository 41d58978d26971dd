import { Effect } from "effect"
import { Outcome } from "../domain/outcome.ts"
import { retryClass, type ServiceError } from "../service/errors.ts"
import { isStorageError, Step } from "./deliverer.ts"
import type { OutboxStorageError } from "./outbox-errors.ts"

/** What a service error makes of the attempt, from the service's retry guidance. */
export const outcomeOf = (error: ServiceError): Outcome => {
  const text = error.message
  if ((error._tag === "ConnectionFailed" || error._tag === "RequestTimeout") && error.sent) {
    return Outcome.retry("transient", text, true)
  }
  switch (retryClass(error)) {
    case "never":
      return Outcome.dead(text)
    case "rate-limited":
      return Outcome.retry("rate-limited", text)
    case "unauthorized":
      return Outcome.retry("unauthorized", text)
    case "transient":
    case "unprocessable":
      return Outcome.retry("transient", text)
  }
}

/** Whatever stops a read-back, the item stays in doubt: the next attempt looks again. */
export const stillInDoubt = (error: ServiceError): Outcome => {
  const outcome = outcomeOf(error)
  return outcome._tag === "Retry" ? { ...outcome, inDoubt: true } : Outcome.retry("transient", outcome._tag === "Dead" ? outcome.error : "reconciliation failed", true)
}

/** A request's service errors settle the attempt as `toOutcome` says; the outbox's own failures stay failures. */
export const settleServiceErrors = (toOutcome: (error: ServiceError) => Outcome) =>
<R>(request: Effect.Effect<Step, ServiceError | OutboxStorageError, R>): Effect.Effect<Step, OutboxStorageError, R> =>
  request.pipe(
    Effect.catchIf((error): error is ServiceError => !isStorageError(error), (error) => Effect.succeed(Step.settled(toOutcome(error))))
  )
