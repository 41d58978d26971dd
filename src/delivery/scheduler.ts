import { Clock, Context, Effect, Layer, Option, Queue, Schema } from "effect"
import { ServiceClient } from "../service/client.ts"
import { BridgeEvents } from "../status/bridge-events.ts"
import { makeBackOff } from "./back-off.ts"
import { staleAutoHighlight } from "../highlights/auto-footage.ts"
import { Deliverer } from "./deliverer.ts"
import { Outbox, type OutboxItem } from "./outbox.ts"
import type { Outcome, RetryKind } from "./outcome.ts"
import { RateBudget, slotOf } from "./rate-budget.ts"
import { unauthorizedProbe } from "./retry-schedule.ts"

export interface SchedulerSnapshot {
  /** Items being delivered now, per place. */
  readonly inFlight: Readonly<Record<string, number>>
  /** When the dispatch loop last went round (ms); it does at least every 5 s, so an old value means it is stuck. */
  readonly lastLoopAt: number
}

class Retryable extends Schema.TaggedError<Retryable>()("Retryable", {
  kind: Schema.Literals(["transient", "rate-limited", "unauthorized"]),
  error: Schema.String,
  failedAt: Schema.Number
}) {}

/** Clicks of one place delivered at once, at most: each is its own fiber, mostly asleep in a back-off. */
const clicksInFlightPerPlace = 32

/**
 * Moves outbox items to the service. One ordered lane per place for scores
 * (at most one in flight, so the service sees them in order) and for undos (each
 * waits for its click); clicks are independent of each other, so one in back-off
 * holds no press behind it, and ask the rate budget with priority, so a click
 * never waits behind a score backlog — at most for the next slot.
 */
export class Scheduler extends Context.Service<Scheduler, {
  /** Tell the scheduler the outbox has new items. */
  readonly wake: Effect.Effect<void>
  readonly snapshot: Effect.Effect<SchedulerSnapshot>
}>()("scorebridge/delivery/Scheduler") {
  static readonly layer = Layer.effect(Scheduler, Effect.gen(function*() {
    const outbox = yield* Outbox
    const budget = yield* RateBudget
    const deliverer = yield* Deliverer
    const bus = yield* BridgeEvents
    const backOff = makeBackOff(yield* ServiceClient)
    const bell = yield* Queue.sliding<void>(1)
    const inFlight = new Map<number, OutboxItem>()
    const busyScoreLanes = new Set<string>()
    let probing = false
    let lastLoopAt = yield* Clock.currentTimeMillis
    const wake = Queue.offer(bell, undefined).pipe(Effect.asVoid)
    // At the commit, not once on disk: the item's in-doubt mark then shares its fsync or runs beside it.
    yield* outbox.whenAppended(wake)

    const probeUntilAccepted = Effect.gen(function*() {
      yield* Effect.logError("service rejected the token (401): delivery is paused for every place, nothing is dropped; check the token")
      yield* Effect.gen(function*() {
        yield* budget.acquire("probe")
        if (!(yield* deliverer.probe.pipe(Effect.ensuring(budget.finished)))) return yield* Effect.fail("still unauthorized")
      }).pipe(Effect.retry({ schedule: unauthorizedProbe }))
      yield* budget.resume
      yield* Effect.logInfo("service accepts the token again: delivery resumed")
    }).pipe(Effect.ensuring(Effect.sync(() => { probing = false })))

    const record = Effect.fnUntraced(function*(item: OutboxItem, outcome: Outcome) {
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

    const retryLater = Effect.fnUntraced(function*(item: OutboxItem, kind: RetryKind, error: string, inDoubt: boolean) {
      const now = yield* Clock.currentTimeMillis
      if (kind === "rate-limited") {
        const pauseMs = yield* budget.rateLimited
        yield* Effect.logWarning(`rate limited (429): every place pauses ${pauseMs} ms`)
      } else if (kind === "unauthorized") {
        yield* budget.suspend("the service rejected the token (401)")
        if (!probing) {
          probing = true
          yield* Effect.forkScoped(probeUntilAccepted)
        }
      } else {
        yield* Effect.logWarning(`${item.kind} #${item.id} for ${item.place} will be retried: ${error}`)
      }
      yield* outbox.reschedule(item.id, error, now, inDoubt)
      return yield* new Retryable({ kind, error, failedAt: now })
    })

    const deliverOnce = (head: OutboxItem) =>
      Effect.gen(function*() {
        // Read again: an earlier attempt may have left it in doubt (reconcile first) or settled it.
        const current = yield* outbox.get(head.id)
        if (Option.isNone(current) || current.value.state !== "pending") return
        const item = current.value
        // An auto-highlight whose footage is gone is not sent late, and spends no slot.
        const stale = staleAutoHighlight(item, yield* Clock.currentTimeMillis)
        if (stale !== undefined) {
          yield* bus.publish({ _tag: "Settled", place: item.place, itemId: item.id, kind: item.kind, outcome: stale })
          return yield* record(item, stale)
        }
        const markedFor = yield* Effect.gen(function*() {
          // The in-doubt mark is written while the item waits, not inside its slot.
          const marked = item.sentAt === null ? yield* deliverer.markBeforeSlot(item) : undefined
          // Nothing leaves before it is on disk (the scheduler sees an item as soon as it is committed).
          yield* outbox.onDisk(item.id)
          yield* budget.acquire(...slotOf(item))
          return marked
        }).pipe(
          // Shut down before its slot (while its mark was written, waited for the disk, or for the
          // slot): nothing left, so an item that was not in doubt before is not after a restart.
          Effect.onInterrupt(() => item.sentAt === null ? Effect.ignore(outbox.unmarkSending(item.id)) : Effect.void)
        )
        const outcome = yield* deliverer.deliver(item, markedFor).pipe(Effect.ensuring(budget.finished))
        yield* bus.publish({ _tag: "Settled", place: item.place, itemId: item.id, kind: item.kind, outcome })
        yield* record(item, outcome)
      })

    const deliver = (item: OutboxItem) =>
      Effect.gen(function*() {
        // An auto-highlight waits here for a press that would replace it (see Outbox.appendMerging).
        const holdMs = item.notBefore - (yield* Clock.currentTimeMillis)
        if (holdMs > 0) yield* Effect.sleep(holdMs)
        for (let failures = 0;; failures++) {
          const failed = yield* deliverOnce(item).pipe(
            // 429 and 401 are paced by the budget itself: try again as soon as it grants a slot.
            Effect.retry({ while: (e) => e._tag === "Retryable" && e.kind !== "transient" }),
            Effect.as(undefined),
            Effect.catchTag("Retryable", Effect.succeed)
          )
          if (failed === undefined) return
          yield* backOff.wait(item, failures, failed.failedAt)
        }
      }).pipe(
        // The item stays pending; wait before releasing its lane so a broken
        // state directory does not turn into a tight resend loop. A write that dies (the in-doubt
        // mark, after the disk failed) waits too: the daemon is about to end.
        Effect.catch((e) =>
          Effect.logError(`could not record the delivery of ${item.kind} #${item.id}: ${String(e)}`).pipe(
            Effect.andThen(Effect.sleep("5 seconds"))
          )
        ),
        Effect.catchDefect((defect) =>
          Effect.logError(`could not deliver ${item.kind} #${item.id}: ${defect instanceof Error ? defect.message : String(defect)}`).pipe(
            Effect.andThen(Effect.sleep("5 seconds"))
          )
        ),
        Effect.ensuring(Effect.suspend(() => {
          inFlight.delete(item.id)
          if (item.kind === "score") busyScoreLanes.delete(item.place)
          return wake
        }))
      )

    const start = Effect.fnUntraced(function*(item: OutboxItem) {
      if (inFlight.has(item.id)) return
      if (item.kind === "score") {
        if (busyScoreLanes.has(item.place)) return
        busyScoreLanes.add(item.place)
      }
      inFlight.set(item.id, item)
      yield* Effect.forkScoped(deliver(item))
    })

    const dispatch = Effect.gen(function*() {
      for (const head of yield* outbox.heads) {
        if (head.kind !== "click") yield* start(head)
        else for (const click of yield* outbox.pending(head.place, "click", clicksInFlightPerPlace)) yield* start(click)
      }
    })

    yield* Effect.forkScoped(Effect.gen(function*() {
      while (true) {
        lastLoopAt = yield* Clock.currentTimeMillis
        yield* dispatch.pipe(Effect.catch((e) => Effect.logError(`cannot read the outbox: ${String(e)}`)))
        // The bell rings on every append and every settled item; the timeout is a safety net.
        yield* Queue.take(bell).pipe(Effect.timeoutOption("5 seconds"))
      }
    }))

    return Scheduler.of({
      wake,
      snapshot: Effect.sync(() => {
        const perPlace: Record<string, number> = {}
        for (const item of inFlight.values()) perPlace[item.place] = (perPlace[item.place] ?? 0) + 1
        return { inFlight: perPlace, lastLoopAt }
      })
    })
  }))
}
