import { Effect, Random } from "effect"
import type { ServiceClient } from "../service/client.ts"
import { footageLasts } from "./footage.ts"
import type { ScoreLane } from "./lanes.ts"
import type { OutboxItem } from "./outbox.ts"
import { perishableCapMs, transientCapMs, transientStepMs } from "./retry-schedule.ts"

/**
 * An item that fails when the service has answered nobody for this long failed in an outage;
 * with successes this recent, its trouble is its own (an endpoint or a body the service chokes on).
 */
export const outageAfterMs = 5_000

/** What the back-off reads of the service: its successes, whoever's request they answered. */
export type Successes = Pick<ServiceClient["Service"], "lastSuccessAt" | "successSince">

/**
 * The wait before an item's next attempt after a transient failure.
 *
 * - Failed in an outage: the service's next success to anyone ends the wait, so pending clicks
 *   (first, by their priority) and the score backlog resume in the next slots instead of
 *   sleeping out steps of up to a minute. A click whose footage is still kept, and the entry at
 *   the head of a place's live score lane, wait at most `perishableCapMs` meanwhile: they find the
 *   service's return themselves, so a live score is current within seconds of it even at a venue
 *   with no buttons (one request per live place every couple of seconds, within the budget).
 * - Failed while the service answered others: the full step, on the normal cap. Nothing cuts
 *   it short, so an item the service keeps refusing never retries at the pace of everyone
 *   else's successes (nor, as a click, takes every slot from the scores).
 */
export const makeBackOff = (successes: Successes) => {
  let outageSince: number | undefined

  const wait = Effect.fnUntraced(function*(item: OutboxItem, failures: number, failedAt: number, lane: ScoreLane = "live") {
    const lastSuccess = yield* successes.lastSuccessAt
    const answeringOthers = lastSuccess < failedAt && failedAt - lastSuccess < outageAfterMs
    const perishable = !answeringOthers &&
      (item.kind === "click" ? footageLasts(item.payload, failedAt) : item.kind === "score" && lane === "live")
    const stepMs = Math.round(transientStepMs(failures, perishable ? perishableCapMs : transientCapMs, yield* Random.next))
    if (answeringOthers) return yield* Effect.sleep(stepMs)
    outageSince ??= Number.isFinite(lastSuccess) && lastSuccess < failedAt ? lastSuccess : failedAt
    const cutShort = yield* Effect.race(
      Effect.as(Effect.sleep(stepMs), false),
      Effect.as(successes.successSince(failedAt), true)
    )
    if (cutShort && outageSince !== undefined) {
      const since = outageSince
      outageSince = undefined
      const answeredAt = yield* successes.lastSuccessAt
      yield* Effect.logInfo(
        `the service answers again after ${Math.round((answeredAt - since) / 1000)} s without a success: ` +
          `every back-off ends, pending clicks go first`
      )
    }
  })

  return { wait }
}
