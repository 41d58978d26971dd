import { Clock, Context, Deferred, Effect, Layer, Queue, Random } from "effect"
import { isAutoClick } from "../highlights/auto-click.ts"

/**
 * Who is asking for a request slot. Presses are served first: their footage
 * expires. Auto-highlights next: their footage expires as fast, but nobody is
 * waiting at the court for them. Background look-ups (which event is live) only
 * take slots that nobody else wants, and the reads of clip follow-ups only those left after them.
 */
export type Priority = "click" | "auto" | "score" | "probe" | "background" | "follow-up"

/** What a slot is asked for: an outbox item, of which only a click's body matters (press or auto-highlight). */
type SlotItem =
  | { readonly kind: "score" | "undo"; readonly createdAt: number }
  | { readonly kind: "click"; readonly createdAt: number; readonly payload: Parameters<typeof isAutoClick>[0] }

/** The priority an outbox item's request asks with: an undo is a press too, so it goes with the clicks. */
const priorityOf = (item: SlotItem): Priority =>
  item.kind === "score" ? "score" : item.kind === "click" && isAutoClick(item.payload) ? "auto" : "click"

/** A request slot for an outbox item: its priority, and its capture time, so waiting clicks go oldest first. */
export const slotOf = (item: SlotItem) =>
  [priorityOf(item), item.createdAt] as const

export interface BudgetOptions {
  /** The service's limit for this token, shared by every place. */
  readonly requestsPerSecond: number
  /** Fraction added to every interval so timer and network jitter never push a request under the limit. */
  readonly margin?: number
}

export interface BudgetSnapshot {
  readonly requestsPerSecond: number
  readonly sentLastMinute: number
  readonly waiting: { readonly click: number; readonly score: number }
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

interface Waiter {
  readonly granted: Deferred.Deferred<void>
  readonly order: number
}

const backoffBaseMs = 1_000
// Capped well inside the minute of footage a click can still be clipped from.
const backoffCapMs = 15_000

const make = Effect.fnUntraced(function*(options: BudgetOptions) {
  const intervalMs = (1000 / options.requestsPerSecond) * (1 + (options.margin ?? 0.01))
  const waiters: Record<Priority, Array<Waiter>> = { click: [], auto: [], score: [], probe: [], background: [], "follow-up": [] }
  const bell = yield* Queue.sliding<void>(1)
  const sent: Array<number> = []
  let lastGrant = -Infinity
  let lastSent = -Infinity
  let lastFinished = -Infinity
  let backoffUntil = 0
  let backoffLevel = 0
  let suspended: string | null = null

  const ring = Queue.offer(bell, undefined)

  const nextWaiter = (): Waiter | undefined =>
    waiters.probe.shift() ??
      (suspended === null
        ? waiters.click.shift() ?? waiters.auto.shift() ?? waiters.score.shift() ?? waiters.background.shift() ??
          waiters["follow-up"].shift()
        : undefined)

  const hasWaiter = () =>
    waiters.probe.length > 0 ||
    (suspended === null &&
      (waiters.click.length > 0 || waiters.auto.length > 0 || waiters.score.length > 0 || waiters.background.length > 0 ||
        waiters["follow-up"].length > 0))

  const grantLoop = Effect.gen(function*() {
    while (true) {
      if (!hasWaiter()) {
        yield* Queue.take(bell)
        continue
      }
      const now = yield* Clock.currentTimeMillis
      // The service counts arrivals, which fall anywhere between our send and
      // its answer: spacing from the previous answer as well as from the previous
      // send keeps a slow first request from arriving too close to the next one.
      const slot = Math.max(lastGrant + intervalMs, lastSent + intervalMs, lastFinished + intervalMs, backoffUntil)
      if (slot > now) {
        // Pick only once the slot is due, so a click that arrives meanwhile
        // takes it ahead of scores that were already waiting.
        yield* Effect.sleep(Math.ceil(slot - now))
        continue
      }
      const waiter = nextWaiter()
      if (waiter === undefined) continue
      // A waiter interrupted meanwhile is already done: it does not spend the slot.
      if (yield* Deferred.succeed(waiter.granted, undefined)) {
        lastGrant = now
        sent.push(now)
        while (sent.length > 0 && sent[0]! < now - 60_000) sent.shift()
      }
    }
  })
  yield* Effect.forkScoped(grantLoop)

  const acquire = (priority: Priority, order?: number) =>
    Effect.gen(function*() {
      const waiter: Waiter = { granted: yield* Deferred.make<void>(), order: order ?? Number.POSITIVE_INFINITY }
      const queue = waiters[priority]
      // Behind every waiter of the same or an older order: equal orders keep arrival order.
      const before = priority === "click" || priority === "auto" ? queue.findIndex((w) => w.order > waiter.order) : -1
      queue.splice(before === -1 ? queue.length : before, 0, waiter)
      yield* ring
      yield* Deferred.await(waiter.granted).pipe(
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            const queue = waiters[priority]
            const at = queue.indexOf(waiter)
            if (at >= 0) queue.splice(at, 1)
          })
        )
      )
    })

  const rateLimited = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const jitter = 0.8 + 0.4 * (yield* Random.next)
    const pauseMs = Math.min(backoffCapMs, backoffBaseMs * 2 ** backoffLevel) * jitter
    backoffLevel = Math.min(backoffLevel + 1, 10)
    backoffUntil = Math.max(backoffUntil, now + pauseMs)
    return Math.round(pauseMs)
  })

  return RateBudget.of({
    acquire,
    sending: Effect.map(Clock.currentTimeMillis, (now) => {
      lastSent = Math.max(lastSent, now)
    }),
    finished: Effect.map(Clock.currentTimeMillis, (now) => {
      lastFinished = Math.max(lastFinished, now)
    }),
    rateLimited,
    succeeded: Effect.sync(() => {
      backoffLevel = 0
    }),
    suspend: (reason) =>
      Effect.sync(() => {
        suspended = reason
      }),
    resume: Effect.suspend(() => {
      suspended = null
      return ring
    }),
    snapshot: Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      return {
        requestsPerSecond: options.requestsPerSecond,
        sentLastMinute: sent.filter((t) => t >= now - 60_000).length,
        waiting: { click: waiters.click.length + waiters.auto.length, score: waiters.score.length },
        backoffUntil: backoffUntil > now ? backoffUntil : null,
        suspended
      }
    })
  })
})
