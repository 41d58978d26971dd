import { Clock, Effect } from "effect"
import type { Slot } from "./deliverer.ts"
import type { OutboxItem, OutboxItems } from "./outbox.ts"

/**
 * Where a request goes, recorded in the outbox (an fsync) before it leaves: if the process dies
 * after, the item is in doubt and the next attempt reads it back before resending. Written while
 * the item waits for its slot when the destination is known then, else inside the slot.
 */
export const makeInDoubtMarks = (outbox: Pick<OutboxItems["Service"], "markSending">, backlogAfterMs: number) => {
  // A score entry that has waited (outage, backlog) goes to the event it was captured in; a fresh one to the place.
  const scoreDestination = (item: OutboxItem, now: number): string =>
    item.eventKey !== null && now - item.createdAt > backlogAfterMs ? item.eventKey : "place"

  // Where the item will go when that is known before its slot; a click whose event is unknown
  // is marked after its look-up, and an undo (a delete, harmless to repeat) never is.
  const destinationOf = (item: OutboxItem, now: number): string | undefined =>
    item.kind === "score" ? scoreDestination(item, now) : item.kind === "click" ? item.eventKey ?? undefined : undefined

  /** Records the item in doubt for `destination`, outside any slot; returns what it marked. */
  const mark = (item: OutboxItem, destination: string | undefined) =>
    destination === undefined ? Effect.succeed(undefined) : outbox.markSending(item.id, destination).pipe(Effect.as(destination))

  return {
    scoreDestination,
    mark,
    /** Marked where it goes as known now, before its first slot or a further one. */
    beforeSlot: (item: OutboxItem) => Effect.flatMap(Clock.currentTimeMillis, (now) => mark(item, destinationOf(item, now))),
    /**
     * In the slot, just before the request: in doubt for `sentTo` unless it was marked for it
     * before the slot; then the request leaves.
     */
    sending: (item: OutboxItem, sentTo: string, slot: Slot) =>
      (slot.markedFor === sentTo ? Effect.void : outbox.markSending(item.id, sentTo)).pipe(Effect.andThen(slot.leaving))
  }
}

export type InDoubtMarks = ReturnType<typeof makeInDoubtMarks>
