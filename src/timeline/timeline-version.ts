import type { LaneCount, SettledFollowUps } from "../delivery/outbox.ts"

/** FNV-1a: short, stable, and enough to tell two states of one place apart. */
const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(36)
}

/**
 * A tag that changes whenever the place's timeline can: every append and every settling moves
 * an item between the counts of its lane, a clip found or given up on settles a follow-up (its
 * click's lane stays as it was), and the event's team names are drawn too. Cheap (two grouped
 * counts per snapshot), so the page asks for the picture only when it changed.
 */
export const timelineVersion = (
  counts: ReadonlyArray<LaneCount>,
  event: { readonly eventKey: string | null; readonly homeTeam?: string | undefined; readonly awayTeam?: string | undefined } | undefined,
  settled: SettledFollowUps | undefined
): string => {
  const lanes = counts.map((c) => `${c.kind}:${c.state}:${c.count}`).sort().join(",")
  const clips = settled === undefined ? "" : `${settled.count}@${settled.lastSettledAt ?? ""}`
  return fnv1a(`${lanes}|${event?.eventKey ?? ""}|${event?.homeTeam ?? ""}|${event?.awayTeam ?? ""}|${clips}`)
}
