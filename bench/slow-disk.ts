import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { RecordedRequest } from "../simulator/control-client.ts"
import { type FsyncRecord, mountSlowDisk } from "../test/support/slow-disk.ts"
import type { Cleanup } from "./cleanup.ts"
import { heldTiming } from "../src/transport/held-messages.ts"
import { type LogLine, startDaemon } from "./daemon-process.ts"
import { accepted, allRequests, type Matched, matchClicks, matchScores, pendingItems, type Press, type ScoreWrite, settle } from "./deliveries.ts"
import { sleep } from "./stats.ts"
import type { Stall } from "./stalls.mjs"
import { waitUntilReady } from "./startup.ts"
import { startTicking } from "./steady.ts"
import { pressButton, requestsPerSecond, token, type Venue, writeScoreChange } from "./venue.ts"

/** The "real slow disk": every fsync of the state directory sleeps this long, then really fsyncs. */
export const fsyncDelayMs = 500
/** The rounds stop starting after this long; a round takes 10–20 s. */
const phaseMs = 110_000
const maxRounds = 10
/** The rate budget's spacing (src/delivery/rate-budget.ts): 1000 ms per request plus its 1 % margin, after the previous send and answer. */
export const slotMs = (1000 / requestsPerSecond) * 1.01
/** The round's court-1 press comes this long before the next entry's slot: its writes (≥ 500 ms) span that slot. */
const pressBeforeSlotMs = 150
/** A press stamped this long after its publish still counts as its click (the old daemon stamps late behind fsyncs). */
const clickWindowMs = 10_000
/** The new file system is at rest once it has not flushed for this long (jbd2 commits every 5 s). */
const diskRestMs = 6_000
/** After the outbox is empty, this long (more than one fsync) so no write of the daemon's is still in flight. */
const quietMs = fsyncDelayMs + 250

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

export interface SlowDiskResult {
  readonly startupMs: number
  /** When the fsync delay was set: the measured part starts here. */
  readonly startedAt: number
  readonly endedAt: number
  readonly rounds: ReadonlyArray<SlowDiskRound>
  /** Every /public/ request of this daemon (the simulator's record is cleared when the phase starts). */
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly idle: Matched
  readonly behind: Matched
  readonly entries: Matched
  /** Daemon stamp − bench write or publish time, every entry and click of the rounds. */
  readonly stampErrors: ReadonlyArray<number>
  /** The same, over 5 ms, each with what it was: to tell a late read of one court from queueing behind the others. */
  readonly lateStamps: ReadonlyArray<{ readonly ms: number; readonly what: string; readonly at: number }>
  readonly otherPlaceDelays: ReadonlyArray<OtherPlaceDelay>
  /**
   * What the disk saw while the delay was set: in block mode the loop device's flushes, each
   * sleeping half the delay (an ext4 fdatasync sends two, so one takes about the delay).
   */
  readonly fsyncs: ReadonlyArray<FsyncRecord>
  readonly stalls: ReadonlyArray<Stall>
  /** The daemon's GC pauses over 2 ms during the rounds. */
  readonly gcPauses: ReadonlyArray<{ readonly at: number; readonly ms: number }>
  /** What the daemon logged at warning level or above during the rounds. */
  readonly warnings: ReadonlyArray<LogLine>
  readonly rssMb: number
}

/**
 * Polls until `check` gives a value, at most `timeoutMs`; undefined on timeout (the round goes
 * on, the sample counts as lost). 20 ms: the simulator's request list is small in this phase.
 */
const waitFor = async <A>(check: () => Promise<A | undefined> | A | undefined, timeoutMs: number): Promise<A | undefined> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await check()
    if (value !== undefined) return value
    await sleep(20)
  }
  return undefined
}

/**
 * Issue 14's slow-disk phase: a second daemon, configured as the first but with its state
 * directory on ext4 over a loop device whose image is on a FUSE passthrough that really sleeps
 * before every flush, so an fsync takes about 500 ms (test/support/slow-disk.ts), while every
 * place keeps sending clock frames. Rounds of (a) two presses on court-1 with nothing
 * else in flight, (b) one score change on each of courts 2–8, then a court-1 press timed so its
 * writes (click, in-doubt mark: ≥ 500 ms each on this disk) overlap the moment the next of those
 * entries is due a rate slot, (c) until everything is delivered. The first daemon must be stopped.
 */
export const runSlowDisk = async (
  venue: Venue,
  cleanup: Cleanup,
  dir: string,
  { onProgress }: { readonly onProgress: (text: string) => void }
): Promise<SlowDiskResult> => {
  // This daemon's requests only, and short lists to poll (the earlier phases' figures are taken).
  await venue.control.clearRequests()
  const diskDirectory = join(dir, "slow-disk")
  mkdirSync(diskDirectory)
  // Block mode: ext4 on a loop device over the FUSE disk, so writes beside an fsync in flight go
  // on as on a real card (on the bare FUSE mount a write waits for its file's fsync).
  const disk = await mountSlowDisk({ directory: diskDirectory, fsyncDelayMs: 0, device: "block" })
  cleanup.defer(() => disk.unmount())
  const stateDirectory = join(disk.path, "state")
  mkdirSync(stateDirectory)
  const configPath = join(dir, "scorebridge-slow-disk.yaml")
  writeFileSync(configPath, venue.configFor(stateDirectory))
  const slowVenue: Venue = { ...venue, configPath, stateDirectory }
  // A fresh ext4 zeroes its inode tables in the background (ext4lazyinit) for about 10 s after the
  // mount (25 s once the disk is slow), with flushes of its own: let that end while the disk is
  // still fast (no flush for longer than the journal's 5 s commit interval), so the rounds see
  // only the daemon's own writes.
  const mountedAt = Date.now()
  const rested = await waitFor(() => {
    const last = disk.fsyncs().at(-1)
    return last === undefined || Date.now() - last.endedAt >= diskRestMs ? last ?? true : undefined
  }, 60_000)
  const restedAfter = rested === undefined ? "still flushing after 60 s" :
    rested === true ? "no flush of its own" : `its last flush of its own ${((rested.endedAt - mountedAt) / 1000).toFixed(1)} s after the mount`
  onProgress(`  slow disk mounted (ext4 over the slow device): ${restedAfter}`)

  const daemon = startDaemon(configPath, { SCOREBRIDGE_TOKEN: token }, join(dir, "heap-slow-disk.ndjson"))
  cleanup.defer(() => daemon.stop())
  const startupMs = await waitUntilReady(daemon, venue.places.length)
  const stopTicking = startTicking(venue)
  cleanup.defer(stopTicking)
  // Same MQTT client id as the first daemon, so the broker resumes its session: presses within 2 s
  // of that connect would be taken for presses held while no bridge listened (late, widened window).
  await sleep(heldTiming.firstMs + 500)
  // As the bench's first warm-up: JIT, connections, live-event look-ups, and every subscription live.
  for (const place of venue.places) {
    writeScoreChange(place)
    await pressButton(venue, place)
    await sleep(50)
  }
  await settle(slowVenue, 2_500, 90_000)
  const warmClicks = (await allRequests(venue)).filter((r) => r.path.endsWith("/clicks") && accepted(r)).length
  if (warmClicks < venue.places.length) throw new Error(`slow disk: only ${warmClicks} of ${venue.places.length} warm-up presses became clicks`)
  onProgress(`  daemon on the slow disk: start-up ${startupMs} ms, warmed up (fsync delay 0) and quiet`)

  // A heap sample empties the daemon's stall list and takes its forced GC before the measured part.
  await daemon.heapSample()
  await sleep(500)
  disk.setFsyncDelay(fsyncDelayMs)
  const startedAt = Date.now()

  /** The outbox has nothing left, and no write can still be under way. */
  const quiet = async () => {
    if (await waitFor(() => (pendingItems(slowVenue) === 0 ? true : undefined), 30_000) === undefined) {
      onProgress("  (the outbox still had pending items after 30 s)")
    }
    await sleep(quietMs)
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
  const endedAt = Date.now()

  const requests = await allRequests(venue)
  const sample = await daemon.heapSample()
  const stalls = sample.stalls.filter((stall) => stall.at >= startedAt && stall.at < endedAt)
  const gcPauses = sample.gcPauses.filter((pause) => pause.at >= startedAt && pause.at < endedAt)
  const fsyncs = disk.fsyncs().filter((f) => f.startedAt >= startedAt && f.startedAt < endedAt)
  const rssMb = daemon.rssMb().rss
  const warnings = daemon.logs().filter((line) => line.level >= 40 && line.time >= startedAt)
  // A healthy disk again, so the daemon's shutdown does not wait on slow fsyncs.
  disk.setFsyncDelay(0)
  stopTicking()
  await daemon.stop()
  await disk.unmount()

  const idle = matchClicks(requests, rounds.flatMap((r) => r.idle), clickWindowMs)
  const behind = matchClicks(requests, rounds.flatMap((r) => (r.behind === undefined ? [] : [r.behind])), clickWindowMs)
  const entries = matchScores(requests, rounds.flatMap((r) => r.writes))
  return {
    startupMs,
    startedAt,
    endedAt,
    rounds,
    requests,
    idle,
    behind,
    entries,
    stampErrors: [...idle.beforeStamp, ...behind.beforeStamp, ...entries.beforeStamp],
    lateStamps: rounds.flatMap((round, r) => [
      ...round.idle.map((press, k) => ({ ms: matchClicks(requests, [press], clickWindowMs).beforeStamp[0], what: `round ${r + 1} idle press ${k + 1}`, at: press.publishedAt })),
      ...(round.behind === undefined ? [] : [{ ms: matchClicks(requests, [round.behind], clickWindowMs).beforeStamp[0], what: `round ${r + 1} press behind the others`, at: round.behind.publishedAt }]),
      ...round.writes.map((write, i) => ({ ms: matchScores(requests, [write]).beforeStamp[0], what: `round ${r + 1} ${write.place.key} (change ${i + 1} of ${round.writes.length}, ${write.place.console.protocol})`, at: write.writtenAt }))
    ]).flatMap((s) => (s.ms !== undefined && s.ms > 5 ? [{ ms: s.ms, what: s.what, at: s.at }] : [])),
    otherPlaceDelays: rounds.flatMap((round) => otherPlaceDelays(requests, round.writes)),
    fsyncs,
    stalls,
    gcPauses,
    warnings,
    rssMb
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
