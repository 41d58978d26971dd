import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { RecordedRequest } from "../simulator/control-client.ts"
import { heldTiming } from "../src/transport/held-messages.ts"
import { type FsyncRecord, mountSlowDisk } from "../scripts/support/slow-disk.ts"
import type { Cleanup } from "./cleanup.ts"
import { type LogLine, startDaemon } from "./daemon-process.ts"
import { allRequests } from "./deliveries.ts"
import { listed } from "./explain.ts"
import { type Heading, type LatencyFigure, say, say429s, sayLatency, sayPercentiles } from "./report.ts"
import { type RoundFigures, roundFigures, runRounds, type SlowDiskRound, waitFor } from "./slow-disk-rounds.ts"
import { type Percentiles, percentiles, sleep } from "./stats.ts"
import type { Stall } from "./stalls.mjs"
import { waitUntilReady, warmUp } from "./startup.ts"
import { startTicking } from "./steady.ts"
import { token, type Venue } from "./venue.ts"

/** The "real slow disk": every fsync of the state directory sleeps this long, then really fsyncs. */
export const fsyncDelayMs = 500
/** The new file system is at rest once it has not flushed for this long (jbd2 commits every 5 s). */
const diskRestMs = 6_000

interface SlowDiskResult extends RoundFigures {
  readonly startupMs: number
  /** When the fsync delay was set: the measured part starts here. */
  readonly startedAt: number
  readonly endedAt: number
  readonly rounds: ReadonlyArray<SlowDiskRound>
  /** Every /public/ request of this daemon (the simulator's record is cleared when the phase starts). */
  readonly requests: ReadonlyArray<RecordedRequest>
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

export interface SlowDiskFigures {
  readonly stampError: Percentiles
  readonly clickIdle: LatencyFigure
  readonly clickBehind: LatencyFigure
  readonly otherPlaceDelay: Percentiles
  readonly fsync: Percentiles
  /** This daemon's 429s; the first one's are counted before it starts. */
  readonly http429: number
  readonly warnings: number
}

/**
 * Issue 14's slow-disk phase: a second daemon, configured as the first but with its state
 * directory on ext4 over a loop device whose image is on a FUSE passthrough that really sleeps
 * before every flush, so an fsync takes about 500 ms (scripts/support/slow-disk.ts), while every
 * place keeps sending clock frames; then the rounds of slow-disk-rounds.ts. The first daemon
 * must be stopped.
 */
export const slowDiskPhase = async (heading: Heading, venue: Venue, cleanup: Cleanup, dir: string): Promise<SlowDiskFigures> => {
  heading(`slow disk: a second daemon with its state directory on ext4 over a slow device (FUSE) where every fsync takes ${fsyncDelayMs} ms; presses on court-1, one score change on each of courts 2–8 while a court-1 press's writes stall`)
  return report(await runSlowDisk(venue, cleanup, dir))
}

const runSlowDisk = async (venue: Venue, cleanup: Cleanup, dir: string): Promise<SlowDiskResult> => {
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
  say(`  slow disk mounted (ext4 over the slow device): ${restedAfter}`)

  const daemon = startDaemon(configPath, { SCOREBRIDGE_TOKEN: token }, join(dir, "heap-slow-disk.ndjson"))
  cleanup.defer(() => daemon.stop())
  const startupMs = await waitUntilReady(daemon, venue.places.length)
  const stopTicking = startTicking(venue)
  cleanup.defer(stopTicking)
  // Same MQTT client id as the first daemon, so the broker resumes its session: presses within 2 s
  // of that connect would be taken for presses held while no bridge listened (late, widened window).
  await sleep(heldTiming.firstMs + 500)
  await warmUp(slowVenue, "slow disk: ")
  say(`  daemon on the slow disk: start-up ${startupMs} ms, warmed up (fsync delay 0) and quiet`)

  // A heap sample empties the daemon's stall list and takes its forced GC before the measured part.
  await daemon.heapSample()
  await sleep(500)
  disk.setFsyncDelay(fsyncDelayMs)
  const startedAt = Date.now()
  const rounds = await runRounds(slowVenue, { startedAt, fsyncDelayMs, onProgress: say })
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
  return { startupMs, startedAt, endedAt, rounds, requests, ...roundFigures(requests, rounds), fsyncs, stalls, gcPauses, warnings, rssMb }
}

const report = (slow: SlowDiskResult): SlowDiskFigures => {
  const http429 = say429s(slow.requests)
  const lateP = percentiles(slow.rounds.map((r) => r.pressLateMs))
  say(`  ${slow.rounds.length} rounds in ${Math.round((slow.endedAt - slow.startedAt) / 1000)} s; the bench published the round presses p50 ${lateP.p50} ms, max ${lateP.max} ms later than planned`)
  const stampError = sayPercentiles("stamp error (daemon stamp − write/publish, entries and clicks)", slow.stampErrors)
  // GC pauses only when asked for (SCOREBRIDGE_BENCH_GC_PAUSES=1): observing them costs the daemon memory.
  const gcObserved = process.env["SCOREBRIDGE_BENCH_GC_PAUSES"] === "1"
  for (const late of slow.lateStamps) {
    const pauses = slow.gcPauses.filter((p) => p.at + p.ms >= late.at && p.at <= late.at + late.ms)
    const gc = gcObserved ? `; daemon GC pauses meanwhile: ${pauses.map((p) => `${p.ms} ms`).join(", ") || "none"}` : ""
    say(`    ${late.ms} ms: ${late.what}, +${((late.at - slow.startedAt) / 1000).toFixed(1)} s${gc}`)
  }
  if (gcObserved) {
    const pausesP = percentiles(slow.gcPauses.map((p) => p.ms))
    say(`  daemon GC pauses over 2 ms in the rounds: ${pausesP.n}${pausesP.n === 0 ? "" : `, p50 ${pausesP.p50} ms, max ${pausesP.max} ms`}`)
  }
  const clickIdle = sayLatency("click latency, idle presses", slow.idle, { slowest: true })
  const otherPlaceDelay = sayPercentiles(
    "other-place delay (courts 2–8 entries after their round's first, beyond the rate limit)",
    slow.otherPlaceDelays.map((d) => d.delayMs),
    { counted: `; entries lost ${slow.entries.lost}` }
  )
  const worstDelays = [...slow.otherPlaceDelays].sort((a, b) => b.delayMs - a.delayMs).slice(0, 3).filter((d) => d.delayMs > 50)
  for (const d of worstDelays) {
    say(`    ${Math.round(d.delayMs)} ms: ${d.entry.path.replace(/^\/public/, "")} at ${new Date(d.entry.at).toISOString().slice(11, 23)}Z, ${d.entry.at - d.previous.at} ms after ${d.previous.method} ${d.previous.path.replace(/^\/public/, "")} (${d.previous.status})`)
  }
  const clickBehind = sayLatency("click latency, round presses behind the others' slots (no target)", slow.behind)
  const fsync = percentiles(slow.fsyncs.map((f) => f.endedAt - f.startedAt))
  say(`  flushes the slow device saw (ext4 on a loop device over the FUSE disk: an fdatasync sends two, each sleeping ${fsyncDelayMs / 2} ms): ${fsync.n}, p50 ${fsync.p50} ms, max ${fsync.max} ms`)
  say(`  event-loop stalls over 20 ms: daemon ${listed(slow.stalls, slow.startedAt)}`)
  say(`  daemon RSS at the end: ${slow.rssMb.toFixed(1)} MB; start-up on the slow disk (fsync delay 0) ${slow.startupMs} ms`)
  say(`  daemon warnings: ${slow.warnings.length === 0 ? "none" : slow.warnings.length}`)
  for (const line of slow.warnings.slice(0, 5)) say(`    +${((line.time - slow.startedAt) / 1000).toFixed(1)} s: ${line.msg}`)
  if (slow.warnings.length > 5) say(`    … and ${slow.warnings.length - 5} more`)
  return { stampError, clickIdle, clickBehind, otherPlaceDelay, fsync, http429, warnings: slow.warnings.length }
}
