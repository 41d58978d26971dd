/**
 * What a place's past events' entries (an outage's backlog, see src/delivery/score-lanes.ts) come
 * to on its card: how many wait, of how many events, and when they will be through at the pace
 * past entries are being accepted now. Pure.
 */
export interface PastBacklog {
  /** Pending entries of past events. */
  readonly entries: number
  /** How many past events they belong to. */
  readonly events: number
  /** When the last of them should be through at the current pace (ms); null while none drains. */
  readonly throughAt: number | null
}

export interface PendingByEvent {
  readonly place: string
  readonly eventKey: string | null
  readonly count: number
}

/** A place's pending entries of events other than its live one (entries without an event go to the live one). */
export const pastEntriesOf = (pending: ReadonlyArray<PendingByEvent>, place: string, liveEventKey: string | null) =>
  pending.filter((p) => p.place === place && p.eventKey !== null && p.eventKey !== liveEventKey)

/**
 * Every place's past backlog. The rate budget grants past entries' slots to the places in turn,
 * so a place with n entries is through after the slots of every place's first n (its own
 * included): Σ min(nᵢ, n) slots, at the pace of the last minute (`perMinute` past entries granted).
 */
export const pastBacklogs = (
  pastByPlace: ReadonlyMap<string, ReadonlyArray<PendingByEvent>>,
  perMinute: number,
  now: number
): ReadonlyMap<string, PastBacklog> => {
  const sizes = [...pastByPlace.values()].map((rows) => rows.reduce((n, r) => n + r.count, 0))
  const backlogs = new Map<string, PastBacklog>()
  for (const [place, rows] of pastByPlace) {
    const entries = rows.reduce((n, r) => n + r.count, 0)
    const slots = sizes.reduce((n, size) => n + Math.min(size, entries), 0)
    const throughAt = entries === 0 ? now : perMinute > 0 ? now + Math.round((slots / perMinute) * 60_000) : null
    backlogs.set(place, { entries, events: rows.length, throughAt })
  }
  return backlogs
}
