import { Clock, Context, Effect, Layer, Result } from "effect"
import type { ClipDetail, ClipOutcome, ClipSettled, FollowUp, FollowUpSettings } from "../domain/follow-up.ts"

export type { ClipSettled } from "../domain/follow-up.ts"
import { ClipFollowUps } from "../delivery/outbox.ts"
import { RateBudget } from "../delivery/rate-budget.ts"
import { ServiceClient } from "../service/client.ts"
import { retryClass, type ServiceError } from "../service/errors.ts"
import type { Moment } from "../service/schemas.ts"
import { BridgeEvents } from "../bus/bridge-events.ts"
import { deadlineOf, givenUp, judgeMoment, nextReadAfterFailure } from "./read-schedule.ts"

/** What the follower uses of the daemon: the seams its virtual-time tests stand in for. */
export interface ClipFollowerPorts {
  readonly outbox: Pick<ClipFollowUps["Service"], "dueFollowUps" | "nextFollowUpAt" | "followUpRead" | "settleFollowUp">
  readonly budget: Pick<RateBudget["Service"], "acquire" | "sending" | "finished" | "rateLimited" | "succeeded" | "snapshot">
  readonly getMoment: (momentKey: string) => Effect.Effect<Moment, ServiceError>
  readonly settled: (event: ClipSettled) => Effect.Effect<void>
}

/** Due follow-ups read per look at the outbox; the rest wait for the next round. */
const batch = 16
/** While the token is tight, how often to look whether it has room for a read again. */
const tightLookMs = 5_000
/** With nothing due, the outbox is looked at again at least this often (a new click's follow-up). */
const idleLookMs = 5_000

interface Follower {
  readonly ports: ClipFollowerPorts
  readonly settings: FollowUpSettings
}

const settle = Effect.fnUntraced(function*(
  { ports }: Follower,
  followUp: FollowUp,
  outcome: ClipOutcome,
  detail: ClipDetail,
  read: boolean,
  lastError?: string
) {
  const first = yield* ports.outbox.settleFollowUp(followUp.clickId, outcome, detail, { read, ...(lastError === undefined ? {} : { lastError }) })
  // Settled meanwhile (an undo deleted the moment): that outcome stands and was told already.
  if (!first) return
  yield* ports.settled({
    place: followUp.place,
    clickItemId: followUp.clickId,
    momentKey: followUp.momentKey,
    outcome,
    detail,
    pressedAt: followUp.pressedAt,
    acceptedAt: followUp.acceptedAt
  })
})

const readFailed = Effect.fnUntraced(function*(follower: Follower, followUp: FollowUp, error: ServiceError) {
  const now = yield* Clock.currentTimeMillis
  if (error._tag === "NotFound") {
    return yield* settle(follower, followUp, "deleted", { reason: "the moment no longer exists at the service (404): undone or deleted there" }, true)
  }
  if (retryClass(error) === "rate-limited") yield* follower.ports.budget.rateLimited
  yield* follower.ports.outbox.followUpRead(followUp.clickId, nextReadAfterFailure(followUp.reads + 1, now, follower.settings), error.message)
})

/** Reads are paced among themselves as well as by the budget: see FollowUpSettings.readGapMs. */
const makePacing = ({ ports: { budget }, settings }: Follower) => {
  let lastReadAt = Number.NEGATIVE_INFINITY
  return Effect.gen(function*() {
    const waitMs = lastReadAt + settings.readGapMs - (yield* Clock.currentTimeMillis)
    if (waitMs > 0) yield* Effect.sleep(waitMs)
    // The token is busy with what cannot wait: look again later (see FollowUpSettings.tightShare).
    while (true) {
      const token = yield* budget.snapshot
      if (token.sentLastMinute < settings.tightShare * token.requestsPerSecond * 60) break
      yield* Effect.sleep(tightLookMs)
    }
    yield* budget.acquire("follow-up")
    lastReadAt = yield* Clock.currentTimeMillis
  })
}

/** One follow-up: given up, or read (in its slot) and settled or given its next read. */
const follow = Effect.fnUntraced(function*(follower: Follower, paced: Effect.Effect<void>, followUp: FollowUp) {
  const { ports, settings } = follower
  if (givenUp(followUp, yield* Clock.currentTimeMillis, settings)) {
    const minutes = Math.round(settings.giveUpAfterMs / 60_000)
    return yield* settle(follower, followUp, "unchecked", {
      reason: `the moment could not be read for ${minutes} min after its deadline (${followUp.lastError ?? "no request slot was free"}): not followed any more`
    }, false)
  }
  yield* paced
  yield* ports.budget.sending
  const answer = yield* ports.getMoment(followUp.momentKey).pipe(Effect.result, Effect.ensuring(ports.budget.finished))
  if (Result.isFailure(answer)) return yield* readFailed(follower, followUp, answer.failure)
  yield* ports.budget.succeeded
  const verdict = judgeMoment(followUp, answer.success, yield* Clock.currentTimeMillis, settings)
  if (verdict._tag === "Settled") return yield* settle(follower, followUp, verdict.outcome, verdict.detail, true)
  yield* ports.outbox.followUpRead(followUp.clickId, verdict.at)
})

/**
 * Follows every click the service accepted until its clip exists (see follow-up.ts): reads its
 * Moment, one read at a time, in request slots that no click, score or look-up wants (the
 * budget's lowest priority), so following never holds up a press and costs a score backlog at
 * most the one slot a read already holds. State lives in the outbox: a restart, even after
 * kill -9, carries on where it was.
 */
export const makeClipFollower = (ports: ClipFollowerPorts, settings: FollowUpSettings) => {
  const follower: Follower = { ports, settings }
  const paced = makePacing(follower)

  /** One round: every follow-up due now, oldest due first; then how long to wait for the next. */
  const round = Effect.gen(function*() {
    const due = yield* ports.outbox.dueFollowUps(yield* Clock.currentTimeMillis, batch)
    for (const followUp of due) yield* follow(follower, paced, followUp)
    if (due.length > 0) return 0
    const next = yield* ports.outbox.nextFollowUpAt
    const now = yield* Clock.currentTimeMillis
    return next === undefined ? idleLookMs : Math.min(Math.max(next - now, 0), idleLookMs)
  })

  return Effect.gen(function*() {
    while (true) {
      // A read or write that fails, or a bug, costs a round, never the follower: clips stay followed.
      const waitMs = yield* round.pipe(
        Effect.catch((e) => Effect.logError(`clip follow-ups: ${e.message}`).pipe(Effect.as(idleLookMs))),
        Effect.catchDefect((defect) =>
          Effect.logError(`clip follow-ups: ${defect instanceof Error ? defect.message : String(defect)}`).pipe(Effect.as(idleLookMs))
        )
      )
      if (waitMs > 0) yield* Effect.sleep(waitMs)
    }
  })
}

/** Runs the follower for the daemon's life (the scope of the layer). */
export class ClipFollower extends Context.Service<ClipFollower, {
  /** When the follow-up of a click must be known by, for whoever shows it as "waiting for its clip". */
  deadlineOf(followUp: Pick<FollowUp, "acceptedAt">): number
}>()("scorebridge/clip-follow-up/ClipFollower") {
  static readonly layer = (settings: FollowUpSettings) =>
    Layer.effect(ClipFollower, Effect.gen(function*() {
      const client = yield* ServiceClient
      const bus = yield* BridgeEvents
      yield* Effect.forkScoped(makeClipFollower({
        outbox: yield* ClipFollowUps,
        budget: yield* RateBudget,
        getMoment: client.getMoment,
        settled: (event) => bus.publish({ _tag: "ClipSettled", ...event })
      }, settings))
      return ClipFollower.of({ deadlineOf: (followUp) => deadlineOf(followUp, settings) })
    }))
}
