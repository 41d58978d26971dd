import { Clock, Context, Deferred, Effect, Layer, Queue } from "effect"
import { makePacing } from "./budget-pacing.ts"
import { makeWaiters, type Priority, type Waiter } from "./budget-waiters.ts"
import { isAutoClick } from "../domain/click-origin.ts"

export type { Priority } from "./budget-waiters.ts"

/** What a slot is asked for: an outbox item, of which only a click's body matters (press or auto-highlight). */
type SlotItem =
  | { readonly kind: "score" | "undo"; readonly createdAt: number }
  | { readonly kind: "click"; readonly createdAt: number; readonly payload: Parameters<typeof isAutoClick>[0] }

/**
 * The priority an outbox item's request asks with: an undo is a press too, so it goes with the
 * clicks; a past event's score entry (`past`, see score-lanes.ts) after everything live.
 */
const priorityOf = (item: SlotItem, past: boolean): Priority =>
  item.kind === "score" ? (past ? "backlog" : "score") : item.kind === "click" && isAutoClick(item.payload) ? "auto" : "click"

/** A request slot for an outbox item: its priority, and its capture time, so waiting clicks go oldest first. */
export const slotOf = (item: SlotItem, past = false) =>
  [priorityOf(item, past), item.createdAt] as const

export interface BudgetOptions {
  /** The service's limit for this token, shared by every place. */
  readonly requestsPerSecond: number
  /** Fraction added to every interval so timer and network jitter never push a request under the limit. */
  readonly margin?: number
}

export interface BudgetSnapshot {
  readonly requestsPerSecond: number
  readonly sentLastMinute: number
  readonly waiting: { readonly click: number; readonly score: number; readonly backlog: number }
  /** Slots granted to past events' entries in the last minute: the pace a backlog drains at now. */
  readonly backlogLastMinute: number
  readonly backoffUntil: number | null
  readonly suspended: string | null
}

/**
 * One rate budget per token: grants request slots no closer than the service's
 * limit, clicks before scores, clicks oldest press first, scores in arrival order (which round-robins the
 * places, since each lane re-queues after its request). A 429 pauses every lane
 * with a growing, jittered back-off; a 401 suspends all but the probe.
 */
export class RateBudget extends Context.Service<RateBudget, {
  /**
   * Waits for a request slot. Clicks are granted by `order` (their press time: after an outage
   * the oldest pending press goes first, whichever woke first); every other priority in arrival order.
   */
  acquire(priority: Priority, order?: number): Effect.Effect<void>
  /**
   * The granted request is leaving now. Work between the grant and the send (the outbox's
   * in-doubt fsync) can stall on a slow disk; spacing the next grant from the real send keeps
   * two requests from leaving together when the stall ends.
   */
  readonly sending: Effect.Effect<void>
  /** The granted request has completed (answered, failed or timed out). */
  readonly finished: Effect.Effect<void>
  readonly rateLimited: Effect.Effect<number>
  readonly succeeded: Effect.Effect<void>
  suspend(reason: string): Effect.Effect<void>
  readonly resume: Effect.Effect<void>
  readonly snapshot: Effect.Effect<BudgetSnapshot>
}>()("scorebridge/delivery/RateBudget") {
  static readonly layer = (options: BudgetOptions) => Layer.effect(RateBudget, make(options))
}

const make = Effect.fnUntraced(function*(options: BudgetOptions) {
  const waiters = makeWaiters()
  const pacing = makePacing(options.requestsPerSecond, options.margin ?? 0.01)
  const bell = yield* Queue.sliding<void>(1)
  let suspended: string | null = null
  const ring = Queue.offer(bell, undefined)

  const grantLoop = Effect.gen(function*() {
    while (true) {
      if (!waiters.any(suspended !== null)) {
        yield* Queue.take(bell)
        continue
      }
      const now = yield* Clock.currentTimeMillis
      const slot = pacing.nextSlotAt()
      if (slot > now) {
        // Pick only once the slot is due, so a click that arrives meanwhile
        // takes it ahead of scores that were already waiting.
        yield* Effect.sleep(Math.ceil(slot - now))
        continue
      }
      const next = waiters.next(suspended !== null)
      // A waiter interrupted meanwhile is already done: it does not spend the slot.
      if (next !== undefined && (yield* Deferred.succeed(next.waiter.granted, undefined))) pacing.granted(now, next.priority === "backlog")
    }
  })
  yield* Effect.forkScoped(grantLoop)

  const acquire = (priority: Priority, order?: number) =>
    Effect.gen(function*() {
      const waiter: Waiter = { granted: yield* Deferred.make<void>(), order: order ?? Number.POSITIVE_INFINITY }
      waiters.add(priority, waiter)
      yield* ring
      yield* Deferred.await(waiter.granted).pipe(Effect.onInterrupt(() => Effect.sync(() => waiters.remove(priority, waiter))))
    })

  return RateBudget.of({
    acquire,
    sending: pacing.sending,
    finished: pacing.finished,
    rateLimited: pacing.rateLimited,
    succeeded: pacing.succeeded,
    suspend: (reason) => Effect.sync(() => { suspended = reason }),
    resume: Effect.suspend(() => {
      suspended = null
      return ring
    }),
    snapshot: Effect.map(Clock.currentTimeMillis, (now) => ({
      requestsPerSecond: options.requestsPerSecond,
      sentLastMinute: pacing.sentSince(now - 60_000),
      waiting: waiters.waiting(),
      backlogLastMinute: pacing.backlogSince(now - 60_000),
      backoffUntil: pacing.backoffUntil(now),
      suspended
    }))
  })
})
