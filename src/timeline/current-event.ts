import type { OutboxItem } from "../delivery/outbox.ts"

/**
 * The event an item was made in: stamped when captured, or learned from the service's answer
 * (an entry captured before any answer named the event is delivered to the place's live one).
 */
export const eventOf = (item: OutboxItem): string | null => {
  if (item.eventKey !== null) return item.eventKey
  const result = item.result
  if (typeof result === "object" && result !== null && "eventKey" in result && typeof result.eventKey === "string") {
    return result.eventKey
  }
  return null
}

export interface CurrentEvent {
  readonly eventKey: string | null
  /** Scores and clicks of that event, oldest first. */
  readonly items: ReadonlyArray<OutboxItem>
}

/**
 * The newest event's scores and clicks among a place's recent items. An item that names no
 * event belongs to the event if it is newer than the event's first item: entries captured
 * before the first answer, and those the service dropped after the event ended, are part of
 * the same match as the operator saw it. Undos name no event; they go with their click.
 */
export const currentEvent = (recent: ReadonlyArray<OutboxItem>): CurrentEvent => {
  const marks = recent.filter((item) => item.kind !== "undo").sort((a, b) => a.id - b.id)
  const newest = marks.findLast((item) => eventOf(item) !== null)
  if (newest === undefined) return { eventKey: null, items: marks }
  const eventKey = eventOf(newest)
  const firstId = marks.find((item) => eventOf(item) === eventKey)!.id
  return {
    eventKey,
    items: marks.filter((item) => {
      const key = eventOf(item)
      return key === eventKey || (key === null && item.id > firstId)
    })
  }
}

/**
 * For reading a place's items newest first only as far as `currentEvent` needs: goes on through the
 * newest event's items and those that name no event, and refuses the first of another event. What it
 * lets through is a superset of the current event's items (the unnamed ones older than the event's
 * first are left out by `currentEvent`), so a weekend's backlog of past events behind a live match
 * is not read. One scan per read: it remembers the newest event it saw.
 */
export const withinCurrentEvent = (): ((item: OutboxItem) => boolean) => {
  let newest: string | undefined
  return (item) => {
    // Undos name no event of their own; they go with their click.
    const key = item.kind === "undo" ? null : eventOf(item)
    if (key === null) return true
    newest ??= key
    return key === newest
  }
}
