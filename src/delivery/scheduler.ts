import { Clock, Context, Effect, Exit, Layer, Option, Queue, type Scope } from "effect"
import { ServiceClient } from "../service/client.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { makeBackOff, type Successes } from "./back-off.ts"
import { staleAutoHighlight } from "../highlights/auto-footage.ts"
import { Deliverer } from "./deliverer.ts"
import { clicksInFlightPerPlace, Lanes } from "./lanes.ts"
import { Outbox, type OutboxItem } from "./outbox.ts"
import { makeOutcomeRecorder } from "./outcome-recorder.ts"
import type { Outcome } from "../domain/outcome.ts"
import { RateBudget, slotOf } from "./rate-budget.ts"
import { makeRequestsInSlots } from "./slots.ts"
import { retryOnStorageFailure } from "./storage-retry.ts"
import { makeTokenProbe } from "./token-probe.ts"

export interface SchedulerSnapshot {
  /** Items being delivered now, per place. */
  readonly inFlight: Readonly<Record<string, number>>
  /** When the dispatch loop last went round (ms); it does at least every 5 s, so an old value means it is stuck. */
  readonly lastLoopAt: number
}

/**
 * Moves outbox items to the service. One ordered lane per place for scores
 * (at most one in flight, so the service sees them in order) and for undos (each
 * waits for its click); clicks are independent of each other, so one in back-off
 * holds no press behind it, and ask the rate budget with priority, so a click
 * never waits behind a score backlog — at most for the next slot. The outbox wakes it
 * on every append.
 */
export class Scheduler extends Context.Service<Scheduler, {
  readonly snapshot: Effect.Effect<SchedulerSnapshot>
}>()("scorebridge/delivery/Scheduler") {
  static readonly layer = Layer.effect(Scheduler, Effect.gen(function*() {
    const bus = yield* BridgeEvents
    return yield* makeScheduler({
      outbox: yield* Outbox,
      budget: yield* RateBudget,
      deliverer: yield* Deliverer,
      successes: yield* ServiceClient,
      settled: (event) => bus.publish({ _tag: "Settled", ...event })
    })
  }))
}

/** What the scheduler uses of the rest of the daemon: the seams its unit tests stand in for. */
export interface SchedulerPorts {
  readonly outbox: Pick<
    Outbox["Service"],
    | "get" | "heads" | "pending" | "onDisk" | "unmarkSending" | "whenAppended" | "diskFailure"
    | "markDelivered" | "markWarning" | "markDead" | "markMissed" | "reschedule"
  >
  readonly budget: Pick<RateBudget["Service"], "acquire" | "sending" | "finished" | "succeeded" | "rateLimited" | "suspend" | "resume">
  readonly deliverer: Deliverer["Service"]
  readonly successes: Successes
  /** An item's attempt has an outcome (for the status page and the demo). */
  readonly settled: (event: { readonly place: string; readonly itemId: number; readonly kind: OutboxItem["kind"]; readonly outcome: Outcome }) => Effect.Effect<void>
}

export const makeScheduler = Effect.fnUntraced(function*(ports: SchedulerPorts): Effect.fn.Return<Scheduler["Service"], never, Scope.Scope> {
  const { outbox, budget, deliverer } = ports
  const backOff = makeBackOff(ports.successes)
  const bell = yield* Queue.sliding<void>(1)
  const lanes = new Lanes<OutboxItem>()
  let lastLoopAt = yield* Clock.currentTimeMillis
  const wake = Queue.offer(bell, undefined).pipe(Effect.asVoid)
  // At the commit, not once on disk: the item's in-doubt mark then shares its fsync or runs beside it.
  yield* outbox.whenAppended(wake)

  const tokenProbe = makeTokenProbe({ budget, probe: deliverer.probe })
  const record = makeOutcomeRecorder({ outbox, budget, probeToken: tokenProbe.start })
  const requestsInSlots = makeRequestsInSlots(budget)
  // Once the disk has failed to store a write, nothing more is delivered: the daemon ends (reload.ts).
  let diskFailed = false
  yield* Effect.forkScoped(Effect.andThen(outbox.diskFailure, Effect.sync(() => {
    diskFailed = true
  })))

  const deliverOnce = (head: OutboxItem) =>
    Effect.gen(function*() {
      // Read again: an earlier attempt may have left it in doubt (reconcile first) or settled it.
      const current = yield* outbox.get(head.id)
      if (Option.isNone(current) || current.value.state !== "pending") return
      const item = current.value
      // An auto-highlight whose footage is gone is not sent late, and spends no slot.
      const stale = staleAutoHighlight(item, yield* Clock.currentTimeMillis)
      if (stale !== undefined) {
        yield* ports.settled({ place: item.place, itemId: item.id, kind: item.kind, outcome: stale })
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
      const outcome = yield* requestsInSlots(item, (slot) => deliverer.deliver(item, slot), markedFor)
      yield* ports.settled({ place: item.place, itemId: item.id, kind: item.kind, outcome })
      yield* record(item, outcome)
    })

  const attempts = (item: OutboxItem) =>
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
    })

  const deliver = (item: OutboxItem) =>
    retryOnStorageFailure(item, attempts(item), () => diskFailed).pipe(
      Effect.onExit((exit) => {
        // A defect is a bug: the lane stays held until a restart rather than resending in a tight loop.
        if (Exit.isFailure(exit) && Exit.hasDies(exit)) return Effect.logError(`delivering ${item.kind} #${item.id} failed (a bug), its lane waits for a restart`, exit.cause)
        lanes.release(item)
        return wake
      })
    )

  const start = (item: OutboxItem) => lanes.admit(item) ? Effect.asVoid(Effect.forkScoped(deliver(item))) : Effect.void

  const dispatch = Effect.gen(function*() {
    if (diskFailed) return
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
    snapshot: Effect.sync(() => ({ inFlight: lanes.perPlace(), lastLoopAt }))
  })
})
