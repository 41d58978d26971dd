import type { Daemon, HeapSample } from "./daemon-process.ts"
import { type Press, type ScoreWrite } from "./deliveries.ts"
import { sleep } from "./stats.ts"
import { pressButton, type Venue, writeScoreChange, writeTick } from "./venue.ts"

/**
 * One action (a score change or a press) per this interval across all places: 1 request/s is
 * the whole token's budget, and a sample must not wait behind the previous one's slot.
 */
const actionEveryMs = 1_200
/** Consoles repeat their state several times a second; every place sends a clock frame this often. */
export const tickEveryMs = 250

/** Clock frames on every place until stopped: the background of every phase, as at a real venue. */
export const startTicking = (venue: Venue): (() => void) => {
  const timer = setInterval(() => {
    for (const place of venue.places) writeTick(place)
  }, tickEveryMs)
  return () => clearInterval(timer)
}

export interface SteadyResult {
  readonly presses: ReadonlyArray<Press>
  readonly writes: ReadonlyArray<ScoreWrite>
  readonly heap: ReadonlyArray<HeapSample>
  readonly rssMb: ReadonlyArray<number>
}

/**
 * Steady state without backlog: round-robin over places, a score change, then (1.2 s later) a
 * press, and so on. Each place posts a score every ~19 s, which keeps its live event known
 * (otherwise the background look-ups, every 30 s per place, would take slots). Heap and RSS
 * are sampled halfway between actions, when nothing of the bench's is in flight, so the
 * forced GC never lands on a measured path.
 */
export const runSteady = async (
  venue: Venue,
  daemon: Daemon,
  { durationMs, heapEveryMs, heapAfterMs, onProgress }: {
    readonly durationMs: number
    readonly heapEveryMs: number
    /** Heap samples start this long into the phase: the first minutes grow caches and JIT code. */
    readonly heapAfterMs: number
    readonly onProgress: (text: string) => void
  }
): Promise<SteadyResult> => {
  const presses: Array<Press> = []
  const writes: Array<ScoreWrite> = []
  const heap: Array<HeapSample> = []
  const rssMb: Array<number> = []
  const start = Date.now()
  let nextHeapAt = start + heapAfterMs
  let nextReportAt = start + 30_000
  const actions = Math.ceil(durationMs / actionEveryMs)
  for (let i = 0; i < actions; i++) {
    const place = venue.places[Math.floor(i / 2) % venue.places.length]!
    if (i % 2 === 0) writes.push({ place, ...writeScoreChange(place) })
    else presses.push({ place, publishedAt: await pressButton(venue, place) })
    await sleep(actionEveryMs / 2)
    const now = Date.now()
    if (now >= nextHeapAt) {
      nextHeapAt += heapEveryMs
      heap.push(await daemon.heapSample())
      rssMb.push(daemon.rssMb().rss)
    }
    if (now >= nextReportAt) {
      nextReportAt += 30_000
      const last = heap.at(-1)
      onProgress(`  ${Math.round((now - start) / 1000)} s: ${writes.length} score changes, ${presses.length} presses` +
        (last === undefined ? "" : `, daemon heap ${(last.heapUsed / 2 ** 20).toFixed(2)} MB after GC, RSS ${daemon.rssMb().rss.toFixed(1)} MB`))
    }
    await sleep(Math.max(0, start + (i + 1) * actionEveryMs - Date.now()))
  }
  return { presses, writes, heap, rssMb }
}
