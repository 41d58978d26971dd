import { Clock, Effect, Layer, Option, Schedule } from "effect"
import { RateBudget } from "./rate-budget.ts"
import { ServiceClient } from "../service/client.ts"
import { ActiveEvents } from "../events/active-events.ts"

/**
 * Keeps the live event of places with buttons known, so a press goes out at
 * once to the right event (or, with no event, makes no request at all). Uses
 * only rate slots nobody else wants; a place that posts scores learns its
 * event from the answers and is refreshed only when that knowledge is stale.
 */
export const eventRefreshLayer = (places: ReadonlyArray<string>, everyMs = 30_000) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const budget = yield* RateBudget
    const client = yield* ServiceClient
    const events = yield* ActiveEvents

    const inIdleSlot = <A, E>(call: Effect.Effect<A, E>) =>
      budget.acquire("background").pipe(Effect.andThen(call.pipe(Effect.ensuring(budget.finished))))

    const refresh = Effect.fnUntraced(function*(place: string) {
      const before = yield* events.current(place)
      if (before !== undefined && (yield* Clock.currentTimeMillis) - before.learnedAt < everyMs) return
      const key = Option.getOrNull(yield* inIdleSlot(client.activeEventKey(place)))
      yield* events.learn(place, key)
      if (key === null || (before?.eventKey === key && before.homeTeam !== undefined)) return
      const event = yield* inIdleSlot(client.getEvent(key))
      yield* events.learnTeams(place, key, {
        ...(event.homeTeam === undefined ? {} : { homeTeam: event.homeTeam }),
        ...(event.awayTeam === undefined ? {} : { awayTeam: event.awayTeam })
      })
    }, (effect, place) => Effect.catch(effect, (e) => Effect.logDebug(`${place}: live event look-up failed: ${e.message}`)))

    for (const place of places) {
      yield* Effect.forkScoped(Effect.repeat(refresh(place), Schedule.spaced(Math.max(1000, everyMs / 3))))
    }
  }))
