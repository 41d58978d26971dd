import { Clock, Deferred, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { isKind, type ItemOf, type KindPayload, type OutboxItem } from "../../src/delivery/outbox.ts"
import type { Outcome } from "../../src/domain/outcome.ts"
import { Step } from "../../src/delivery/deliverer.ts"
import { OutboxWriteError } from "../../src/delivery/outbox-errors.ts"
import type { SchedulerPorts } from "../../src/delivery/scheduler.ts"
import { makeSuccessWatch } from "../../src/service/success-watch.ts"

/**
 * Stand-ins for the scheduler's seams, for its unit tests on virtual time: an outbox in memory
 * that keeps the real one's lane semantics (heads: each place's oldest pending item per kind),
 * and a service whose answers the test scripts. The real outbox and service are judged by their
 * own tests and by the scheduler's tests against the simulator.
 */
export const memoryOutbox = () => {
  const items = new Map<number, OutboxItem>()
  const listeners: Array<Effect.Effect<void>> = []
  let nextId = 1
  const pendingOf = (place: string, kind: OutboxItem["kind"]) =>
    [...items.values()].filter((i) => i.state === "pending" && i.place === place && i.kind === kind).sort((a, b) => a.id - b.id)
  const update = (id: number, change: Partial<Omit<ItemOf<"score">, "kind" | "payload">>) => Effect.sync(() => {
    const item = items.get(id)
    if (item !== undefined) items.set(id, { ...item, ...change })
  })
  // Settling writes fail while the test says the disk is full; once it says the disk failed, every write fails.
  let fullFor = 0
  const diskFailed = Deferred.makeUnsafe<OutboxWriteError>()
  const writeError = (reason: string) => new OutboxWriteError({ path: "memory", reason })
  const writable = Effect.suspend(() => {
    if (Deferred.isDoneUnsafe(diskFailed)) return Effect.fail(writeError("the disk failed"))
    if (fullFor === 0) return Effect.void
    fullFor--
    return Effect.fail(writeError("disk full (ENOSPC)"))
  })
  const settle = (id: number, state: OutboxItem["state"], lastError: string | null, result: unknown) =>
    Effect.andThen(writable, Effect.flatMap(Clock.currentTimeMillis, (now) =>
      update(id, { state, lastError, result: result ?? null, settledAt: now, attempts: (items.get(id)?.attempts ?? 0) + 1 })))

  const port: SchedulerPorts["outbox"] = {
    get: (id) => Effect.sync(() => Option.fromNullishOr(items.get(id))),
    lanes: Effect.sync(() => {
      const places = new Set([...items.values()].filter((i) => i.state === "pending").map((i) => i.place))
      return [...places].flatMap((place) => (["click", "score", "undo"] as const).flatMap((kind) => pendingOf(place, kind).slice(0, 1)))
        .sort((a, b) => a.id - b.id)
        .map((head) => ({ place: head.place, kind: head.kind, headId: head.id }))
    }),
    pending: (place, kind, limit) => Effect.sync(() => pendingOf(place, kind).filter(isKind(kind)).slice(0, limit)),
    // The real outbox's rule (OutboxItems.scoreHeads): live = no event key or the live event's.
    scoreHeads: (place, live, lanes = ["live", "past"]) => Effect.sync(() => {
      const scores = pendingOf(place, "score").filter(isKind("score"))
      const liveEventKey = live === undefined ? scores.at(-1)?.eventKey ?? null : live.eventKey
      const isLive = (item: OutboxItem) => item.eventKey === null || item.eventKey === liveEventKey
      const asked = (lane: "live" | "past", item: ItemOf<"score"> | undefined) => Option.fromNullishOr(lanes.includes(lane) ? item : undefined)
      return {
        latest: asked("live", scores.filter(isLive).at(-1)),
        oldestLive: asked("live", scores.find(isLive)),
        oldestPast: asked("past", scores.find((item) => !isLive(item))),
        liveEventKey
      }
    }),
    onDisk: () => Effect.void,
    unmarkSending: (id) => update(id, { sentAt: null, sentTo: null }),
    whenAppended: (effect) => Effect.sync(() => void listeners.push(effect)),
    diskFailure: Deferred.await(diskFailed),
    markDelivered: (id, result) => settle(id, "delivered", null, result),
    markWarning: (id, warning, result) => settle(id, "warning", warning, result),
    markDead: (id, error) => settle(id, "dead", error, null),
    markMissed: (id, reason, result) => settle(id, "missed", reason, result),
    reschedule: (id, error, notBefore, inDoubt) => Effect.sync(() => {
      const item = items.get(id)
      if (item === undefined) return
      items.set(id, {
        ...item, attempts: item.attempts + 1, lastError: error, notBefore,
        ...(inDoubt === true ? {} : { sentAt: null, sentTo: null })
      })
    })
  }

  /** Stores an item as the real outbox's append does, and wakes whoever listens. */
  const append = (
    input: KindPayload & { readonly place: string; readonly createdAt?: number; readonly notBefore?: number; readonly eventKey?: string | null }
  ) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const item: OutboxItem = {
        ...input, id: nextId++, eventKey: input.eventKey === undefined ? "ev-1" : input.eventKey, dedupeKey: null,
        createdAt: input.createdAt ?? now, attempts: 0, notBefore: input.notBefore ?? 0, state: "pending",
        lastError: null, result: null, settledAt: null, sentAt: null, sentTo: null
      }
      items.set(item.id, item)
      yield* Effect.forEach(listeners, (listener) => listener, { discard: true })
      return item
    })

  /** Leaves an item in doubt, as the in-doubt mark before a request does. */
  const markSent = (id: number, sentTo: string, sentAt: number) => update(id, { sentTo, sentAt })

  return {
    port,
    append,
    markSent,
    item: (id: number) => items.get(id),
    /** The next `writes` settling writes fail, as on a full disk. */
    fillDisk: (writes: number) => { fullFor = writes },
    /** The disk fails to store a write: every write fails from now on, and `diskFailure` completes. */
    failDisk: () => Deferred.doneUnsafe(diskFailed, Effect.succeed(writeError("the disk failed")))
  }
}

/** One request as the scripted service saw it. */
export interface Sent {
  readonly id: number
  readonly place: string
  readonly kind: OutboxItem["kind"]
  readonly at: number
  readonly outcome: Outcome
}

/**
 * A service that answers each delivery with what `answer` says (by default: delivered), records
 * when it was asked on the virtual clock, and counts answered requests as the client's successes.
 */
export const scriptedService = () => {
  const sent: Array<Sent> = []
  const probes: Array<{ readonly at: number; readonly accepted: boolean }> = []
  const successes = makeSuccessWatch()
  let answer: (item: OutboxItem, attempt: number) => Outcome = () => ({ _tag: "Delivered", result: {} })
  let tokenAccepted = true
  let mark: SchedulerPorts["deliverer"]["markBeforeSlot"] = () => Effect.succeed(undefined)

  const deliverer: SchedulerPorts["deliverer"] = {
    markBeforeSlot: (item) => mark(item),
    deliver: (item, slot) =>
      Effect.gen(function*() {
        yield* slot.leaving
        const at = yield* Clock.currentTimeMillis
        const outcome = answer(item, sent.filter((s) => s.id === item.id).length)
        sent.push({ id: item.id, place: item.place, kind: item.kind, at, outcome })
        // Every answer but a failure of the service itself proves it is up.
        if (outcome._tag !== "Retry" || outcome.kind !== "transient") successes.record(at)
        return Step.settled(outcome)
      }),
    probe: Effect.gen(function*() {
      const at = yield* Clock.currentTimeMillis
      probes.push({ at, accepted: tokenAccepted })
      if (tokenAccepted) successes.record(at)
      return tokenAccepted
    })
  }

  return {
    deliverer,
    successes: { lastSuccessAt: successes.lastAt, successSince: successes.successSince },
    sent,
    probes,
    answerWith: (next: typeof answer) => { answer = next },
    markWith: (next: typeof mark) => { mark = next },
    acceptToken: (accepted: boolean) => { tokenAccepted = accepted }
  }
}

/**
 * Moves the virtual clock on in small steps until `done` holds, letting every fiber due run at
 * each step; fails after `limitMs` of virtual time, so a broken scheduler ends the test.
 */
export const advanceUntil = (done: () => boolean, what: string, limitMs = 600_000, stepMs = 10) =>
  Effect.gen(function*() {
    for (let waited = 0; !done(); waited += stepMs) {
      if (waited > limitMs) return yield* Effect.die(new Error(`not within ${limitMs} ms of virtual time: ${what}`))
      yield* TestClock.adjust(stepMs)
      yield* Effect.yieldNow
    }
  })
