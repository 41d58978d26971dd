import { Effect } from "effect"
import type { OutboxItem } from "./outbox.ts"
import type { makeOutcomeRecorder } from "./outcome-recorder.ts"
import type { SchedulerPorts } from "./scheduler-ports.ts"
import { makeRequestsInSlots } from "./slots.ts"

/** What a delivery attempt does once its slot is granted: send its item, or hand the slot to a newer entry of its lane. */
export const makeSlotSending = (ports: SchedulerPorts, record: ReturnType<typeof makeOutcomeRecorder>) => {
  const { outbox, deliverer } = ports
  const requestsInSlots = makeRequestsInSlots(ports.budget)

  /** Sends `item` in the slot granted and records what came of it. */
  const sendInSlot = Effect.fnUntraced(function*(item: OutboxItem, markedFor: string | undefined, past: boolean) {
    const outcome = yield* requestsInSlots(item, (slot) => deliverer.deliver(item, slot), markedFor, past)
    yield* ports.settled({ place: item.place, itemId: item.id, kind: item.kind, outcome })
    yield* record(item, outcome)
  })

  /**
   * The slot goes to the lane's newer entry: the waiting one did not leave (its in-doubt mark, if
   * this attempt wrote it, is taken back), the newer one is marked and on disk first. From here
   * the delivery is the newer entry's (`handedOver`); the waiting one stays pending for the lane.
   */
  const handOver = Effect.fnUntraced(function*(waiting: OutboxItem, newer: OutboxItem, handedOver: (newer: OutboxItem) => void) {
    handedOver(newer)
    if (waiting.sentAt === null) yield* outbox.unmarkSending(waiting.id)
    const markedFor = newer.sentAt === null ? yield* deliverer.markBeforeSlot(newer) : undefined
    yield* outbox.onDisk(newer.id)
    yield* sendInSlot(newer, markedFor, false)
  })

  return { sendInSlot, handOver }
}
