import type { StateEvent } from "../../../simulator/control-client.ts"
import type { MatchStreamer } from "./match-streamer.ts"
import type { World } from "./world.ts"

/**
 * The suite's definition of "every change exactly once, in order, with the original timestamp"
 * for a serial scoreboard:
 *
 * - a change counts as *received* when a frame showing it (the point, or a clock-only frame
 *   after it) was written to the pty while the daemon had the port open (the streamer writes
 *   only then) and at least `chanceMs` before the daemon was next killed. Every received change
 *   must be in the service exactly once.
 * - a change all of whose frames were written less than `chanceMs` before a kill may be
 *   missing (the bytes died in the killed process before they could be stored; the console will
 *   not send them again) — but if present, it too is there exactly once.
 * - a change that shows the board the last stored entry showed, all changes since it having been
 *   lost that way, may be missing too: to the daemon the board has not changed.
 * - nothing else is there: no entry that no frame showed, no duplicate, none in another event.
 * - entries are in the match's order by timestamp, and each is stamped at most `stampLimitMs`
 *   after the write of a frame showing it (late only by the pty and scheduling lag on a loaded
 *   machine, never by a restart, an outage or a retry).
 */
export const chanceMs = 1_000
export const stampLimitMs = 1_000

export interface EntryCheck {
  readonly delivered: number
  readonly expected: number
  readonly mayBeMissing: number
  readonly missing: number
  readonly problems: ReadonlyArray<string>
  readonly duplicates: number
}

export const comparable = (entry: Readonly<Record<string, unknown>>) =>
  JSON.stringify({ left: entry["left"], right: entry["right"], period: entry["period"], scoreValue: entry["scoreValue"] })

export const eventOf = async (world: World, place: string): Promise<StateEvent> => {
  const state = await world.control.state()
  const event = state.events.find((e) => e.key === world.eventKeys[place])
  if (event === undefined) throw new Error(`no event ${world.eventKeys[place]} in the simulator`)
  return event
}

/**
 * `cutoffs`: when the daemon lost the chance to store what it had read (kills, unplugs).
 * `chance`: how long before each cutoff a change may have been shown and still be lost, for all
 * cutoffs or one per cutoff; `chanceMs` unless a scenario loses more (a power cut loses the
 * writes not yet fsynced too: see stalled-write.test.ts).
 */
export const checkEntries = async (
  world: World,
  place: string,
  match: MatchStreamer,
  cutoffs: ReadonlyArray<number>,
  chance: number | ReadonlyArray<number> = chanceMs
): Promise<EntryCheck> => {
  const event = await eventOf(world, place)
  const state = await world.control.state()
  const problems: Array<string> = []
  for (const other of state.events) {
    if (other.key === event.key) continue
    const strays = other.scoreStream.filter((s) => match.expected.some((e) => comparable(e.entry) === comparable(s)))
    if (strays.length > 0) problems.push(`${strays.length} tennis entries in event ${other.key} (${other.placeKey})`)
  }
  // The frames showing each change: the one that first showed it and the clock-only ones after
  // it. A daemon that missed the first (killed) learns the change from the next, stamped then.
  const framesOf = (i: number): Array<number> => {
    const first = match.expected[i]!.step
    const end = match.expected[i + 1]?.step ?? Number.POSITIVE_INFINITY
    return match.written.filter((w) => w.step >= first && w.step < end).map((w) => w.at)
  }
  const chanceAt = (i: number) => (typeof chance === "number" ? chance : chance[i] ?? chanceMs)
  const atRisk = (at: number) => cutoffs.some((cut, i) => at <= cut && cut - at < chanceAt(i))
  const received = match.expected.map((e, i) => ({ ...e, frames: framesOf(i) })).filter((e) => e.frames.length > 0)
  const mayMiss = (i: number) => received[i]!.frames.every(atRisk)

  let cursor = 0
  let missing = 0
  let mayBeMissing = 0
  let duplicates = 0
  let lastMatched = -1
  // A board back at the last stored entry after the changes between were lost (3-3, 4-3 lost
  // in a kill, 3-3 again) is no change to the daemon: storing it again would be a duplicate.
  const backToLastStored = (i: number) => lastMatched >= 0 && comparable(received[i]!.entry) === comparable(received[lastMatched]!.entry)
  const skip = (from: number, to: number, where: string) => {
    for (let skipped = from; skipped < to; skipped++) {
      if (mayMiss(skipped) || backToLastStored(skipped)) mayBeMissing++
      else {
        missing++
        problems.push(`change #${skipped} (frames written at ${received[skipped]!.frames.join(",")}) missing${where}: ${comparable(received[skipped]!.entry)}`)
      }
    }
  }
  for (const stored of event.scoreStream) {
    const text = comparable(stored)
    if (lastMatched >= 0 && comparable(received[lastMatched]!.entry) === text) {
      duplicates++
      problems.push(`duplicate of change #${lastMatched} at ${stored.timeStamp}`)
      continue
    }
    // The same board can come back (deuce, 3-4, deuce): the entry is the change that showed it
    // when it was stamped, the first such one if none did (that one is then reported as late).
    const shownAt = (i: number) => received[i]!.frames.some((at) => stored.timeStamp >= at && stored.timeStamp - at <= stampLimitMs)
    const candidates = received.flatMap((e, i) => (i >= cursor && comparable(e.entry) === text ? [i] : []))
    const found = candidates.find(shownAt) ?? candidates[0] ?? -1
    if (found === -1) {
      problems.push(`entry no received frame showed, or out of order: ${text} at ${stored.timeStamp}`)
      continue
    }
    skip(cursor, found, "")
    const frames = received[found]!.frames
    if (!shownAt(found)) problems.push(`change #${found} stamped ${stored.timeStamp}, not within ${stampLimitMs} ms after a frame showing it (${frames.join(",")}; kills ${cutoffs.join(",")})`)
    cursor = found + 1
    lastMatched = found
  }
  skip(cursor, received.length, " at the end")
  return { delivered: event.scoreStream.length, expected: received.length, mayBeMissing, missing, problems, duplicates }
}

export interface PressCheck {
  readonly sent: number
  readonly delivered: number
  readonly duplicates: number
  readonly problems: ReadonlyArray<string>
}

/**
 * Presses published at QoS 1 to a broker holding the daemon's persistent session: every one
 * must become exactly one moment — none lost, none twice (two moments with one click id, or
 * more moments than presses).
 */
export const checkPresses = async (world: World, place: string, publishedAt: ReadonlyArray<number>): Promise<PressCheck> => {
  const event = await eventOf(world, place)
  const problems: Array<string> = []
  const ids = event.moments.map((m) => String(m.metadata?.["clickId"]))
  const duplicates = ids.length - new Set(ids).size
  if (duplicates > 0) problems.push(`${duplicates} moments share a click id`)
  if (event.moments.length !== publishedAt.length) {
    problems.push(`${publishedAt.length} presses published, ${event.moments.length} moments in the event`)
  }
  return { sent: publishedAt.length, delivered: event.moments.length, duplicates: Math.max(duplicates, event.moments.length - publishedAt.length), problems }
}
