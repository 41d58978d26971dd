import { Clock, Context, Effect, Exit, Layer, Queue, type Scope } from "effect"
import { ServiceClient } from "../service/client.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { makeBackOff } from "./back-off.ts"
import { Deliverer } from "./deliverer.ts"
import { clicksInFlightPerPlace, Lanes, type ScoreLane } from "./lanes.ts"

const scoreLanes: ReadonlyArray<ScoreLane> = ["live", "past"]
import { type LiveScoreOrder, makeScoreLaneChoice } from "./score-lanes.ts"
import { ActiveEvents } from "../events/active-events.ts"
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

export interface SchedulerOptions {
  /** The order a live event's waiting entries leave in (see score-lanes.ts); default `latest-first`. */
  readonly liveScoreOrder?: LiveScoreOrder
}

/**
 * Moves outbox items to the service. Two score lanes per place, one entry in flight in each: the
 * live event's entries, and past events' entries (an outage's backlog), which ask the rate budget
 * with the lowest priority, so the live score is current within a few slots of the service's
 * return however long the backlog. One lane for undos (each waits for its click); clicks are
 * independent of each other, so one in back-off holds no press behind it, and ask the rate budget
 * first, so a click never waits behind a score backlog — at most for the next slot. The outbox
 * wakes it on every append.
 */
export class Scheduler extends Context.Service<Scheduler, {
  readonly snapshot: Effect.Effect<SchedulerSnapshot>
}>()("scorebridge/delivery/Scheduler") {
  static readonly layer = (options: SchedulerOptions = {}) => Layer.effect(Scheduler, Effect.gen(function*() {
    const bus = yield* BridgeEvents
    const events = yield* ActiveEvents
    return yield* makeScheduler({
      outbox: { ...(yield* OutboxItems), diskFailure: (yield* OutboxHealth).diskFailure },
      budget: yield* RateBudget,
      deliverer: yield* Deliverer,
      successes: yield* ServiceClient,
      liveEvent: events.current,
      settled: (event) => bus.publish({ _tag: "Settled", ...event })
    }, options)
  }))
}

export type { SchedulerPorts } from "./scheduler-ports.ts"

/** Dispatches at every ring of the bell (each append and settled item), and every 5 s as a safety net. */
const dispatchLoop = <R>(dispatch: Effect.Effect<void, unknown, R>, bell: Queue.Queue<void>, went: (at: number) => void) =>
  Effect.gen(function*() {
    while (true) {
      went(yield* Clock.currentTimeMillis)
      yield* dispatch.pipe(Effect.catch((e) => Effect.logError(`cannot read the outbox: ${String(e)}`)))
      yield* Queue.take(bell).pipe(Effect.timeoutOption("5 seconds"))
    }
  })

/**
 * One item's delivery, from its admission to its lane's release: the lane stays held by whichever
 * entry is in flight (a newer one of the live lane once its slot was handed over, score-lanes.ts).
 */
const laneDelivery = (lanes: Lanes<OutboxItem>, attempts: ReturnType<typeof untilSettled>, diskFailed: () => boolean, wake: Effect.Effect<void>) =>
  (item: OutboxItem, lane: ScoreLane) => {
    let current = item
    const handedOver = (newer: OutboxItem) => {
      lanes.handOver(current, newer)
      current = newer
    }
    return retryOnStorageFailure(item, attempts(item, lane, handedOver), diskFailed).pipe(
      Effect.onExit((exit) => {
        // A defect is a bug: the lane stays held until a restart rather than resending in a tight loop.
        if (Exit.isFailure(exit) && Exit.hasDies(exit)) return Effect.logError(`delivering ${current.kind} #${current.id} failed (a bug), its lane waits for a restart`, exit.cause)
        lanes.release(current)
        return wake
      })
    )
  }

export const makeScheduler = Effect.fnUntraced(function*(
  ports: SchedulerPorts,
  options: SchedulerOptions = {}
): Effect.fn.Return<Scheduler["Service"], never, Scope.Scope> {
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
  yield* Effect.forkScoped(Effect.andThen(outbox.diskFailure, Effect.sync(() => void (diskFailed = true))))

  const choice = makeScoreLaneChoice(ports, options.liveScoreOrder ?? "latest-first")
  const attempts = untilSettled(makeDeliveryAttempt(ports, record, choice.newerAtSlot), makeBackOff(ports.successes), choice.stillChosen)

  const deliver = laneDelivery(lanes, attempts, () => diskFailed, wake)

  const start = (item: OutboxItem, lane: ScoreLane = "live") =>
    Effect.suspend(() => lanes.admit(item, lane) ? Effect.as(Effect.forkScoped(deliver(item, lane)), true) : Effect.succeed(false))
  // A place's two score lanes, each taking its next entry when free: the live event is the one
  // the service last named for the place (or, until it has, the newest pending entry's).
  // Only the free lanes' heads are read: each read decodes rows, and this runs at every wake for
  // every place with pending entries (a live lane mostly holds an entry waiting for its slot).
  const startScores = Effect.fnUntraced(function*(place: string) {
    const free = scoreLanes.filter((lane) => !lanes.busy(place, lane))
    if (free.length === 0) return
    const [heads, now] = yield* Effect.all([choice.heads(place, free), Clock.currentTimeMillis])
    for (const lane of free) {
      const next = choice.picker.next(place, lane, heads, now)
      if (next._tag === "None" || lanes.busy(place, lane)) continue
      if ((yield* start(next.value, lane)) && lane === "live") choice.picker.started(next.value)
    }
  })

  // The lanes come without their items; each kind reads what it can start.
  const dispatch = Effect.gen(function*() {
    if (diskFailed) return
    for (const { place, kind } of yield* outbox.lanes) {
      if (kind === "score") yield* startScores(place)
      else if (kind === "undo") for (const undo of yield* outbox.pending(place, "undo", 1)) yield* start(undo)
      else for (const click of yield* outbox.pending(place, "click", clicksInFlightPerPlace)) yield* start(click)
    }
  })

  yield* Effect.forkScoped(dispatchLoop(dispatch, bell, (at) => void (lastLoopAt = at)))

  return Scheduler.of({
    snapshot: Effect.sync(() => ({ inFlight: lanes.perPlace(), lastLoopAt }))
  })
})
