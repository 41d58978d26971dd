import { Clock, Effect, Option } from "effect"
import { staleAutoHighlight } from "./auto-footage.ts"
import type { makeBackOff } from "./back-off.ts"
import type { OutboxItem } from "./outbox.ts"
import type { makeOutcomeRecorder } from "./outcome-recorder.ts"
import { slotOf } from "./rate-budget.ts"
import type { ScoreLane } from "./lanes.ts"
import type { SchedulerPorts } from "./scheduler-ports.ts"
import { makeSlotSending } from "./slot-sending.ts"

/**
 * One attempt at an item: read it again, mark it in doubt and wait for it to be on disk and for
 * its first slot, run its requests in their slots, then tell and record the outcome. Fails with
 * the recorder's Retryable when the item is to be tried again, and with the outbox's errors.
 */
/**
 * Asked when an item's slot is granted: a newer entry its lane would rather send now (a live change
 * made while the item waited for the slot, during an outage often many seconds), or none.
 */
export type NewerAtSlot = (item: OutboxItem, lane: ScoreLane) => Effect.Effect<Option.Option<OutboxItem>>

export const makeDeliveryAttempt = (
  ports: SchedulerPorts,
  record: ReturnType<typeof makeOutcomeRecorder>,
  newerAtSlot: NewerAtSlot = () => Effect.succeedNone
) => {
  const { outbox, budget, deliverer } = ports
  const { sendInSlot, handOver } = makeSlotSending(ports, record)

  /** Marks the item (when known where it goes), waits for the disk and the slot; returns the mark. */
  const untilSlot = (item: OutboxItem, past: boolean) =>
    Effect.gen(function*() {
      // The in-doubt mark is written while the item waits, not inside its slot.
      const marked = item.sentAt === null ? yield* deliverer.markBeforeSlot(item) : undefined
      // Nothing leaves before it is on disk (the scheduler sees an item as soon as it is committed).
      yield* outbox.onDisk(item.id)
      yield* budget.acquire(...slotOf(item, past))
      return marked
    }).pipe(
      // Shut down before its slot (while its mark was written, waited for the disk, or for the
      // slot): nothing left, so an item that was not in doubt before is not after a restart.
      Effect.onInterrupt(() => item.sentAt === null ? Effect.ignore(outbox.unmarkSending(item.id)) : Effect.void)
    )

  /**
   * `lane`: a score entry's lane (live or past), which decides its priority. `handedOver`: told
   * when the slot went to a newer entry of the lane (see NewerAtSlot), whose delivery this becomes.
   */
  return (head: OutboxItem, lane: ScoreLane = "live", handedOver: (newer: OutboxItem) => void = () => undefined) =>
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
      const past = lane === "past"
      const markedFor = yield* untilSlot(item, past)
      const newer = yield* newerAtSlot(item, lane)
      if (Option.isSome(newer)) return yield* handOver(item, newer.value, handedOver)
      yield* sendInSlot(item, markedFor, past)
    })
}

/**
 * Attempts at an item until one settles it. 429 and 401 are paced by the budget itself: tried
 * again as soon as it grants a slot; other failures wait for the item's back-off.
 */
export const untilSettled = (
  attempt: ReturnType<typeof makeDeliveryAttempt>,
  backOff: ReturnType<typeof makeBackOff>,
  /**
   * Asked after each back-off: is the item still the one its lane would take now? When not (a
   * newer live change came during an outage, or the entry turned out to be a past event's), the
   * delivery ends unsettled and the lane takes its new head, so the service's return finds each
   * lane's right entry waiting rather than the one it held when the outage began.
   */
  stillChosen: (item: OutboxItem, lane: ScoreLane) => Effect.Effect<boolean> = () => Effect.succeed(true)
) =>
(item: OutboxItem, lane: ScoreLane = "live", handedOver: (newer: OutboxItem) => void = () => undefined) =>
  Effect.gen(function*() {
    // An auto-highlight waits here for a press that would replace it (see OutboxItems.appendMerging).
    const holdMs = item.notBefore - (yield* Clock.currentTimeMillis)
    if (holdMs > 0) yield* Effect.sleep(holdMs)
    // The entry being delivered: a newer one of the lane once a slot was handed over to it.
    let current = item
    const takeOver = (newer: OutboxItem) => {
      current = newer
      handedOver(newer)
    }
    for (let failures = 0;; failures++) {
      const failed = yield* Effect.suspend(() => attempt(current, lane, takeOver)).pipe(
        Effect.retry({ while: (e) => e._tag === "Retryable" && e.kind !== "transient" }),
        Effect.as(undefined),
        Effect.catchTag("Retryable", Effect.succeed)
      )
      if (failed === undefined) return
      yield* backOff.wait(current, failures, failed.failedAt, lane)
      if (!(yield* stillChosen(current, lane))) return
    }
  })
