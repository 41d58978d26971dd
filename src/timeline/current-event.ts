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
 * For reading a place's items newest first only as far as `currentEvent` needs, so that a weekend's
 * backlog of past events behind a live match is not read (nor decoded). `liveEventKey`: the event
 * the service names live on the place, when known; its items and those that name no event go on,
 * the first of another event ends the read. Not known (no answer since the start, as after a
 * restart during an outage): the newest item's event is the current one; when the newest name no
 * event, the first settled item of an event names theirs (the service's answer said where they
 * went), while a pending one of another event is a backlog's and ends the read.
 */
export const withinCurrentEvent = (liveEventKey?: string): ((item: OutboxItem) => boolean) => {
  let current: string | null | undefined = liveEventKey
  return (item) => {
    // Undos name no event of their own; they go with their click.
    if (item.kind === "undo") return true
    const key = eventOf(item)
    if (current === undefined) {
      current = key
      return true
    }
    if (key === null || key === current) return true
    if (current === null && item.state !== "pending") {
      current = key
      return true
    }
    return false
  }
}
