import type { RecordedRequest } from "../simulator/control-client.ts"
import { allRequests, type Matched, matchClicks, matchScores, pendingItems, type Press, type ScoreWrite } from "./deliveries.ts"
import { sleep } from "./stats.ts"
import { pressButton, requestsPerSecond, type Venue, writeScoreChange } from "./venue.ts"

/** The rounds stop starting after this long; a round takes 10–20 s. */
const phaseMs = 110_000
const maxRounds = 10
/** The rate budget's spacing (src/delivery/rate-budget.ts): 1000 ms per request plus its 1 % margin, after the previous send and answer. */
const slotMs = (1000 / requestsPerSecond) * 1.01
/** The round's court-1 press comes this long before the next entry's slot: its writes (≥ 500 ms) span that slot. */
const pressBeforeSlotMs = 150
/** A press stamped this long after its publish still counts as its click (the old daemon stamps late behind fsyncs). */
const clickWindowMs = 10_000

export interface SlowDiskRound {
  /** (a) presses on court-1 with nothing else in flight. */
  readonly idle: ReadonlyArray<Press>
  /** (b) one score change on each of courts 2–8. */
  readonly writes: ReadonlyArray<ScoreWrite>
  /** (b) the court-1 press timed to overlap the next entry's slot; undefined if the first entry never arrived. */
  readonly behind: Press | undefined
  /** How much later than planned (r1 + slot − 150 ms) the bench published that press. */
  readonly pressLateMs: number
}

export interface OtherPlaceDelay {
  readonly delayMs: number
  readonly entry: RecordedRequest
  readonly previous: RecordedRequest
}

/**
 * Polls until `check` gives a value, at most `timeoutMs`; undefined on timeout (the round goes
 * on, the sample counts as lost). 20 ms: the simulator's request list is small in this phase.
 */
export const waitFor = async <A>(check: () => Promise<A | undefined> | A | undefined, timeoutMs: number): Promise<A | undefined> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await check()
    if (value !== undefined) return value
    await sleep(20)
  }
  return undefined
}

/**
 * Rounds of (a) two presses on court-1 with nothing else in flight, (b) one score change on each
 * of courts 2–8, then a court-1 press timed so its writes (click, in-doubt mark: ≥ 500 ms each on
 * this disk) overlap the moment the next of those entries is due a rate slot, (c) until everything
 * is delivered. `venue` is the slow-disk daemon's (its outbox is the one watched).
 */
export const runRounds = async (
  venue: Venue,
  { startedAt, fsyncDelayMs, onProgress }: { readonly startedAt: number; readonly fsyncDelayMs: number; readonly onProgress: (text: string) => void }
): Promise<Array<SlowDiskRound>> => {
  /** The outbox has nothing left, and no write can still be under way (more than one fsync after). */
  const quiet = async () => {
    if (await waitFor(() => (pendingItems(venue) === 0 ? true : undefined), 30_000) === undefined) {
      onProgress("  (the outbox still had pending items after 30 s)")
    }
    await sleep(fsyncDelayMs + 250)
  }
  const clickArrived = async (press: Press) => matchClicks(await allRequests(venue), [press], clickWindowMs).lost === 0 ? true : undefined

  const court1 = venue.places[0]!
  const others = venue.places.slice(1)
  const rounds: Array<SlowDiskRound> = []
  while (rounds.length < maxRounds && Date.now() - startedAt < phaseMs) {
    // (a) Idle presses: court-1 alone, each waited for at the simulator, then quiet again.
    const idle: Array<Press> = []
    for (let k = 0; k < 2; k++) {
      const press = { place: court1, publishedAt: await pressButton(venue, court1) }
      idle.push(press)
      if (await waitFor(() => clickArrived(press), 15_000) === undefined) onProgress(`  round ${rounds.length + 1}: idle press ${k + 1} did not arrive within 15 s`)
      await quiet()
    }

    // (b) One change on each of courts 2–8, a few ms apart; they go out one per rate slot.
    const writes: Array<ScoreWrite> = []
    for (const place of others) {
      writes.push({ place, ...writeScoreChange(place) })
      await sleep(3)
    }
    const first = await waitFor(async () => {
      const requests = await allRequests(venue)
      const matched = matchScores(requests, writes)
      if (matched.seqs.length === 0) return undefined
      const firstSeq = Math.min(...matched.seqs)
      return requests.find((r) => r.seq === firstSeq)
    }, 15_000)
    let behind: Press | undefined
    let pressLateMs = 0
    if (first === undefined) {
      onProgress(`  round ${rounds.length + 1}: no entry of courts 2–8 arrived within 15 s; no press this round`)
    } else {
      // r1 + slot − 150 ms: the press's writes span the moment the next court's entry is due.
      const pressAt = first.at + slotMs - pressBeforeSlotMs
      await sleep(pressAt - Date.now())
      behind = { place: court1, publishedAt: await pressButton(venue, court1) }
      pressLateMs = behind.publishedAt - pressAt
    }

    // (c) Everything of the round delivered before the next.
    const press = behind
    const delivered = await waitFor(async () => {
      const requests = await allRequests(venue)
      const done = matchScores(requests, writes).lost === 0 && (press === undefined || matchClicks(requests, [press], clickWindowMs).lost === 0)
      return done ? true : undefined
    }, 30_000)
    if (delivered === undefined) onProgress(`  round ${rounds.length + 1}: not everything arrived within 30 s`)
    await quiet()
    rounds.push({ idle, writes, behind, pressLateMs })
    const requests = await allRequests(venue)
    const latencies = (presses: ReadonlyArray<Press>) => {
      const matched = matchClicks(requests, presses, clickWindowMs)
      return `${matched.latencies.join(", ") || "none"}${matched.lost > 0 ? ` (${matched.lost} lost)` : ""}`
    }
    const delays = otherPlaceDelays(requests, writes).map((d) => Math.round(d.delayMs)).join(", ")
    onProgress(`  round ${rounds.length} at ${Math.round((Date.now() - startedAt) / 1000)} s: idle clicks ${latencies(idle)} ms; entries after the first left ${delays || "–"} ms late; round press ${latencies(behind === undefined ? [] : [behind])} ms`)
  }
  return rounds
}

export interface RoundFigures {
  readonly idle: Matched
  readonly behind: Matched
  readonly entries: Matched
  /** Daemon stamp − bench write or publish time, every entry and click of the rounds. */
  readonly stampErrors: ReadonlyArray<number>
  /** The same, over 5 ms, each with what it was: to tell a late read of one court from queueing behind the others. */
  readonly lateStamps: ReadonlyArray<{ readonly ms: number; readonly what: string; readonly at: number }>
  readonly otherPlaceDelays: ReadonlyArray<OtherPlaceDelay>
}

/** The rounds' samples matched against what the simulator received. */
export const roundFigures = (requests: ReadonlyArray<RecordedRequest>, rounds: ReadonlyArray<SlowDiskRound>): RoundFigures => {
  const idle = matchClicks(requests, rounds.flatMap((r) => r.idle), clickWindowMs)
  const behind = matchClicks(requests, rounds.flatMap((r) => (r.behind === undefined ? [] : [r.behind])), clickWindowMs)
  const entries = matchScores(requests, rounds.flatMap((r) => r.writes))
  return {
    idle,
    behind,
    entries,
    stampErrors: [...idle.beforeStamp, ...behind.beforeStamp, ...entries.beforeStamp],
    lateStamps: rounds.flatMap((round, r) => [
      ...round.idle.map((press, k) => ({ ms: matchClicks(requests, [press], clickWindowMs).beforeStamp[0], what: `round ${r + 1} idle press ${k + 1}`, at: press.publishedAt })),
      ...(round.behind === undefined ? [] : [{ ms: matchClicks(requests, [round.behind], clickWindowMs).beforeStamp[0], what: `round ${r + 1} press behind the others`, at: round.behind.publishedAt }]),
      ...round.writes.map((write, i) => ({ ms: matchScores(requests, [write]).beforeStamp[0], what: `round ${r + 1} ${write.place.key} (change ${i + 1} of ${round.writes.length}, ${write.place.console.protocol})`, at: write.writtenAt }))
    ]).flatMap((s) => (s.ms !== undefined && s.ms > 5 ? [{ ms: s.ms, what: s.what, at: s.at }] : [])),
    otherPlaceDelays: rounds.flatMap((round) => otherPlaceDelays(requests, round.writes))
  }
}

/**
 * How much later than the rate limit allows each entry of courts 2–8 left, except the round's
 * first: its arrival minus (the arrival of the request the simulator received just before it +
 * one slot), clamped at 0. These entries' own writes happened long before their slot (stored
 * when written, marked before they left), so the figure is the delay that another court's
 * stalled write (court-1's press) put on "entries of the courts whose writes were not stalled".
 * (A daemon that stores on its event loop stores the round's seven changes one after another,
 * 500 ms each: there the second entry also waits for the later courts' stores.)
 */
const otherPlaceDelays = (requests: ReadonlyArray<RecordedRequest>, writes: ReadonlyArray<ScoreWrite>): Array<OtherPlaceDelay> => {
  const index = new Map(requests.map((r, i) => [r.seq, i]))
  const arrived = matchScores(requests, writes).seqs.map((seq) => index.get(seq)!).sort((a, b) => a - b)
  return arrived.slice(1).flatMap((i) => {
    const entry = requests[i]!
    const previous = requests[i - 1]
    return previous === undefined ? [] : [{ delayMs: Math.max(0, entry.at - (previous.at + slotMs)), entry, previous }]
  })
}
