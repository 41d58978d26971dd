import { Clock, Effect, Layer, Option } from "effect"
import { ActiveEvents } from "../events/active-events.ts"
import { RateBudget, slotOf } from "./rate-budget.ts"
import { reconcile } from "./reconcile.ts"
import { ServiceClient } from "../service/client.ts"
import { retryClass, type ServiceError } from "../service/errors.ts"
import { Deliverer } from "./deliverer.ts"
import { footageLasts } from "./footage.ts"
import { type KindItem, Outbox, type OutboxItem } from "./outbox.ts"
import { Outcome } from "../domain/outcome.ts"

export interface DelivererOptions {
  /**
   * A score entry older than this has waited (outage, backlog): it goes to the
   * event that was live when it was captured, not to whatever runs on the place now.
   */
  readonly backlogAfterMs?: number
}

/** Maps outbox items to service calls, and service errors to outcomes. */
export const serviceDeliverer = (options: DelivererOptions = {}) =>
  Layer.effect(Deliverer, Effect.gen(function*() {
    const client = yield* ServiceClient
    const outbox = yield* Outbox
    const events = yield* ActiveEvents
    const budget = yield* RateBudget
    const backlogAfterMs = options.backlogAfterMs ?? 10_000

    /**
     * Records the attempt as in doubt (fsync) unless it was marked for this destination before
     * its slot, then tells the budget the request leaves now.
     */
    const markSending = (id: number, sentTo: string, markedFor: string | undefined) =>
      (markedFor === sentTo ? Effect.void : outbox.markSending(id, sentTo).pipe(Effect.orDie)).pipe(
        Effect.andThen(budget.sending)
      )

    // A score entry that has waited goes to the event it was captured in; a fresh one to the place.
    const scoreDestination = (item: OutboxItem, now: number): string =>
      item.eventKey !== null && now - item.createdAt > backlogAfterMs ? item.eventKey : "place"

    // Where the item will go when that is known before its slot; a click whose event is unknown
    // is marked after its look-up, and an undo (a delete, harmless to repeat) never is.
    const destinationOf = (item: OutboxItem, now: number): string | undefined =>
      item.kind === "score" ? scoreDestination(item, now) : item.kind === "click" ? item.eventKey ?? undefined : undefined

    /** Records the item in doubt for `destination` (an fsync), outside any rate slot; returns what it marked. */
    const markInDoubt = (item: OutboxItem, destination: string | undefined) =>
      destination === undefined
        ? Effect.succeed(undefined)
        : outbox.markSending(item.id, destination).pipe(Effect.orDie, Effect.as(destination))

    /** A second slot within one delivery (after a look-up or a read-back): marked while it is awaited, as the first. */
    const markThenAcquire = (item: OutboxItem, destination: string | undefined) =>
      markInDoubt(item, destination).pipe(Effect.tap(budget.acquire(...slotOf(item))))

    const deliverScore = Effect.fnUntraced(function*(item: KindItem<"score">, markedFor: string | undefined) {
      const entry = item.payload
      // Decided again at the send: an entry can cross backlogAfterMs while it waits for its slot.
      const destination = scoreDestination(item, yield* Clock.currentTimeMillis)
      yield* markSending(item.id, destination, markedFor)
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

    // A click goes to the event it was pressed in; when that was not known at
    // press time, the place's active event is looked up now.
    const deliverClick = Effect.fnUntraced(function*(item: KindItem<"click">, markedBeforeSlot: string | undefined) {
      let markedFor = markedBeforeSlot
      const body = item.payload
      const lookedUp = item.eventKey === null
      const eventKey = item.eventKey ?? Option.getOrNull(yield* client.activeEventKey(item.place))
      if (eventKey === null) {
        yield* events.learn(item.place, null)
        return Outcome.warning(`no event running on ${item.place}: the press made no highlight`)
      }
      if (lookedUp) {
        // The look-up spent the granted slot: posting at once would be a second request in it,
        // a 429 at a 1 request/s limit, on every retry, until the click is missed.
        yield* events.learn(item.place, eventKey)
        yield* budget.finished
        markedFor = yield* markThenAcquire(item, eventKey)
      }
      yield* markSending(item.id, eventKey, markedFor)
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

    // An undo names the click it takes back; the moment exists only once that click is delivered.
    const deliverUndo = Effect.fnUntraced(function*(item: KindItem<"undo">) {
      const { clickItemId } = item.payload
      const click = yield* outbox.get(clickItemId).pipe(Effect.orDie)
      if (Option.isNone(click)) return Outcome.warning(`nothing to undo: click #${clickItemId} is no longer in the outbox`)
      if (click.value.state === "pending") return Outcome.retry("transient", `waiting for click #${clickItemId} to be delivered`)
      const momentKey = (click.value.result as { momentKey?: string } | null)?.momentKey
      if (momentKey === undefined) return Outcome.warning(`nothing to undo: click #${clickItemId} made no highlight`)
      // A retried delete whose first attempt went through finds nothing: the undo is done.
      yield* client.deleteMoment(momentKey).pipe(Effect.catchTag("NotFound", () => Effect.void))
      return Outcome.delivered({ deletedMomentKey: momentKey, clickItemId })
    })

    /**
     * The event an in-doubt item would be in: where it was sent, else where it was captured, else
     * the live one. After a restart nothing may be known yet (the run's first entries are captured
     * before any answer names the event): then the live event is looked up, in the granted slot,
     * because resending unread could apply the entry twice.
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

    // The slot the scheduler granted pays for the first request (read-back or look-up); every
    // further request of this delivery waits for a slot of its own.
    const reconciled = Effect.fnUntraced(function*(item: OutboxItem) {
      const doubt = yield* eventOfDoubt(item)
      if (doubt.lookedUp && doubt.eventKey !== null) {
        yield* budget.finished
        yield* budget.acquire(...slotOf(item))
      }
      const found = yield* reconcile(client, item, doubt.eventKey).pipe(
        // An event that is gone cannot hold the item: send it, and let the service say what it thinks.
        Effect.catchTag("NotFound", () => Effect.succeed(Option.none()))
      )
      if (Option.isSome(found)) {
        yield* Effect.logInfo(`${item.kind} #${item.id} for ${item.place} was already received by the service: not resent`)
        return { _tag: "Found", outcome: Outcome.delivered(found.value) } satisfies Reconciled
      }
      yield* budget.finished
      const markedFor = yield* markThenAcquire(item, destinationOf(item, yield* Clock.currentTimeMillis))
      return { _tag: "Resend", markedFor } satisfies Reconciled
    })

    const send = (item: OutboxItem, markedFor: string | undefined) =>
      item.kind === "score" ? deliverScore(item, markedFor) : item.kind === "undo" ? deliverUndo(item) : deliverClick(item, markedFor)

    const markBeforeSlot = (item: OutboxItem): Effect.Effect<string | undefined> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => markInDoubt(item, destinationOf(item, now)))

    const deliver = (item: OutboxItem, markedFor?: string): Effect.Effect<Outcome> =>
      Effect.gen(function*() {
        let marked = markedFor
        // In doubt from an earlier attempt (not this one's own mark): read back before resending.
        if (item.sentAt !== null && markedFor === undefined && item.kind !== "undo") {
          const already = yield* reconciled(item).pipe(
            // Whatever stops the look-up, the item stays in doubt: the next attempt looks again.
            Effect.catch((error: ServiceError) => Effect.fail(stillInDoubt(outcomeOf(error))))
          )
          if (already._tag === "Found") return already.outcome
          marked = already.markedFor
        }
        return yield* send(item, marked).pipe(Effect.catch((error: ServiceError) => Effect.succeed(outcomeOf(error))))
      }).pipe(Effect.catch((outcome: Outcome) => Effect.succeed(outcome)))

    return Deliverer.of({
      markBeforeSlot,
      deliver,
      probe: client.sports.pipe(Effect.as(true), Effect.catch(() => Effect.succeed(false)))
    })
  }))

/** What a read-back of an item in doubt found: the service has it, or it is to be sent again. */
type Reconciled =
  | { readonly _tag: "Found"; readonly outcome: Outcome }
  | { readonly _tag: "Resend"; readonly markedFor: string | undefined }

const stillInDoubt = (outcome: Outcome): Outcome =>
  outcome._tag === "Retry" ? { ...outcome, inDoubt: true } : Outcome.retry("transient", outcome._tag === "Dead" ? outcome.error : "reconciliation failed", true)

const outcomeOf = (error: ServiceError): Outcome => {
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
