import { Clock, Context, Effect, Exit, Layer, Queue, type Scope } from "effect"
import { ServiceClient } from "../service/client.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { makeBackOff } from "./back-off.ts"
import { Deliverer } from "./deliverer.ts"
import { clicksInFlightPerPlace, Lanes } from "./lanes.ts"
import { OutboxHealth, type OutboxItem, OutboxItems } from "./outbox.ts"
import { makeDeliveryAttempt, untilSettled } from "./delivery-attempt.ts"
import { makeOutcomeRecorder } from "./outcome-recorder.ts"
import type { SchedulerPorts } from "./scheduler-ports.ts"
import { RateBudget } from "./rate-budget.ts"
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
      outbox: { ...(yield* OutboxItems), diskFailure: (yield* OutboxHealth).diskFailure },
      budget: yield* RateBudget,
      deliverer: yield* Deliverer,
      successes: yield* ServiceClient,
      settled: (event) => bus.publish({ _tag: "Settled", ...event })
    })
  }))
}

export type { SchedulerPorts } from "./scheduler-ports.ts"

export const makeScheduler = Effect.fnUntraced(function*(ports: SchedulerPorts): Effect.fn.Return<Scheduler["Service"], never, Scope.Scope> {
  const { outbox, budget, deliverer } = ports
  const bell = yield* Queue.sliding<void>(1)
  const lanes = new Lanes<OutboxItem>()
  let lastLoopAt = yield* Clock.currentTimeMillis
  const wake = Queue.offer(bell, undefined).pipe(Effect.asVoid)
  // At the commit, not once on disk: the item's in-doubt mark then shares its fsync or runs beside it.
  yield* outbox.whenAppended(wake)

  const tokenProbe = makeTokenProbe({ budget, probe: deliverer.probe })
  const record = makeOutcomeRecorder({ outbox, budget, probeToken: tokenProbe.start })
  // Once the disk has failed to store a write, nothing more is delivered: the daemon ends (reload.ts).
  let diskFailed = false
  yield* Effect.forkScoped(Effect.andThen(outbox.diskFailure, Effect.sync(() => {
    diskFailed = true
  })))

  const attempts = untilSettled(makeDeliveryAttempt(ports, record), makeBackOff(ports.successes))

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
