import { Clock, Effect, Layer, Option } from "effect"
import type { ScoreEntry } from "../domain/score-entry.ts"
import { ActiveEvents } from "../events/active-events.ts"
import { ServiceClient } from "../service/client.ts"
import type { ClickBody } from "../service/schemas.ts"
import { retryClass, type ServiceError } from "../service/errors.ts"
import { Deliverer } from "./deliverer.ts"
import type { OutboxItem } from "./outbox.ts"
import { Outcome } from "./outcome.ts"

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
    const events = yield* ActiveEvents
    const backlogAfterMs = options.backlogAfterMs ?? 10_000

    const deliverScore = Effect.fnUntraced(function*(item: OutboxItem) {
      const entry = item.payload as ScoreEntry
      const now = yield* Clock.currentTimeMillis
      if (item.eventKey !== null && now - item.createdAt > backlogAfterMs) {
        const answer = yield* client.postEventScore(item.eventKey, entry)
        return Outcome.delivered({ eventKey: item.eventKey, key: answer.key })
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
    const deliverClick = Effect.fnUntraced(function*(item: OutboxItem) {
      const body = item.payload as ClickBody
      const eventKey = item.eventKey ?? Option.getOrNull(yield* client.activeEventKey(item.place))
      if (eventKey === null) {
        yield* events.learn(item.place, null)
        return Outcome.warning(`no event running on ${item.place}: the press made no highlight`)
      }
      const answer = yield* client.postClick(eventKey, body)
      if (answer.error !== undefined) {
        return Outcome.warning(`highlight made, but the service did not accept all of it: ${answer.error}`, { eventKey, ...answer })
      }
      return Outcome.delivered({ eventKey, momentKey: answer.momentKey })
    })

    const deliverUndo = Effect.fnUntraced(function*(item: OutboxItem) {
      const { momentKey } = item.payload as { momentKey: string }
      yield* client.deleteMoment(momentKey)
      return Outcome.delivered({ deletedMomentKey: momentKey })
    })

    const deliver = (item: OutboxItem): Effect.Effect<Outcome> => {
      const attempt = item.kind === "score"
        ? deliverScore(item)
        : item.kind === "undo"
        ? deliverUndo(item)
        : deliverClick(item)
      return attempt.pipe(Effect.catch((error: ServiceError) => Effect.succeed(outcomeOf(error))))
    }

    return Deliverer.of({
      deliver,
      probe: client.sports.pipe(Effect.as(true), Effect.catch(() => Effect.succeed(false)))
    })
  }))

const outcomeOf = (error: ServiceError): Outcome => {
  const text = error.message
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
