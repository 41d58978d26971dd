/**
 * The daemon's performance figures (issue #7): latency of presses and score changes, drain rate,
 * memory and start-up of `bin/scorebridge run` as a separate process serving 8 places, plus the
 * decoders' throughput in-process; then (issue #14) a second daemon whose state directory is on
 * ext4 over a slow device whose every fsync really takes 500 ms (scripts/support/slow-disk.ts): stamp
 * error, click latency and the delay other courts' entries get while one court's write is stalled.
 * Prints figures as it goes and, last, one JSON line.
 *
 * Then (issue 34) the backlog phase: a third daemon started on an outbox of 40,000 pending entries
 * of past events while the service is down, then the service's return (bench/backlog.ts).
 *
 *   npm run bench                      # about 14 minutes
 *   npm run bench -- --soak 60         # steady phase of 60 minutes for the heap slope
 *   npm run bench -- --slow-disk-only  # start-up, warm-up and the slow-disk phase only (about 3 minutes)
 *   npm run bench -- --backlog-only    # the backlog phase only (about 2 minutes)
 *   npm run bench -- --chatter-only    # the chatter phase only (about 2.5 minutes)
 *
 * And the chatter phase: 100 zigbee2mqtt devices on the daemon's broker (bench/chatter.ts).
 *
 * This file only orders the phases; each prints its own lines and returns its figures to the
 * summary (summary.ts), which holds the targets and the JSON line.
 */
import { rmSync } from "node:fs"
import { parseArgs } from "node:util"
import { backlogPhase } from "./backlog.ts"
import { chatterPhase } from "./chatter.ts"
import { type Cleanup, makeCleanup } from "./cleanup.ts"
import { decoderPhase } from "./decoders.ts"
import { allRequests } from "./deliveries.ts"
import { describeHost, loadAverage } from "./host.ts"
import { recordMachinePressure } from "./machine-pressure.ts"
import { preflight } from "./preflight.ts"
import { type Heading, headings, say, say429s } from "./report.ts"
import { saturatedPhase } from "./saturated.ts"
import { slowDiskPhase } from "./slow-disk.ts"
import { recordStalls } from "./stalls.mjs"
import { startupPhase } from "./startup.ts"
import { steadyPhase } from "./steady.ts"
import { type LoadedFigures, type MainFigures, summarize } from "./summary.ts"
import { tempDir } from "../scripts/support/temp-dir.ts"

const { values: args } = parseArgs({
  options: {
    soak: { type: "string", default: "2.5" },
    backlog: { type: "string", default: "24" },
    "slow-disk-only": { type: "boolean", default: false },
    "backlog-only": { type: "boolean", default: false },
    "chatter-only": { type: "boolean", default: false }
  }
})
const soakMinutes = Number(args.soak)
const backlogPerPlace = Number(args.backlog)
const slowDiskOnly = args["slow-disk-only"]
const backlogOnly = args["backlog-only"]
const chatterOnly = args["chatter-only"]
if (!(soakMinutes > 0 && soakMinutes <= 24 * 60) || !(Number.isInteger(backlogPerPlace) && backlogPerPlace > 0 && backlogPerPlace <= 200) ||
  [slowDiskOnly, backlogOnly, chatterOnly].filter(Boolean).length > 1) {
  process.stderr.write("usage: node bench/run.ts [--soak MINUTES (0–1440, default 2.5)] [--backlog ENTRIES_PER_PLACE (default 24)] [--slow-disk-only | --backlog-only | --chatter-only]\n")
  process.exit(64)
}
const placeCount = 8
preflight({ slowDisk: !backlogOnly && !chatterOnly })

/**
 * Issues 7 and 14's phases: the first daemon's start-up, the loaded phases (unless
 * --slow-disk-only), then the slow-disk phase's second daemon. Returns their figures.
 */
const mainPhases = async (heading: Heading, cleanup: Cleanup, dir: string, benchStartedAt: number) => {
  const decoders = slowDiskOnly ? undefined : await decoderPhase(heading)
  const { venue, daemon, startupMs, stopTicking } = await startupPhase(heading, cleanup, dir, { placeCount, benchStartedAt })

  let loaded: LoadedFigures | undefined
  if (decoders !== undefined) {
    // The bench's own stalls and the machine's pressure over both loaded phases: a slow sample
    // is laid against them to tell the daemon's delay from the machine's.
    const watch = { bench: recordStalls(20), machine: recordMachinePressure() }
    cleanup.defer(watch.machine.stop)
    const steady = await steadyPhase(heading, venue, daemon, watch, soakMinutes)
    const saturated = await saturatedPhase(heading, venue, daemon, watch, backlogPerPlace)
    watch.bench.stop()
    loaded = { decoders, steady, saturated, soakMinutes }
  }

  // The first daemon is done: its 429s and warnings now, before the slow-disk phase clears the simulator's record.
  stopTicking()
  const http429 = say429s(await allRequests(venue))
  const warnings = daemon.logs().filter((line) => line.level >= 40).length
  await daemon.stop()

  const slowDisk = await slowDiskPhase(heading, venue, cleanup, dir)
  const main: MainFigures = { startupMs, warnings, slowDisk }
  return { loaded, main, http429: http429 + slowDisk.http429 }
}

/** Phases in the run: decoders, start-up, steady, saturated, slow disk, backlog, chatter, summary; fewer with the --…-only flags. */
const phaseCount = () => (backlogOnly || chatterOnly ? 2 : slowDiskOnly ? 3 : 8)

const main = async () => {
  const benchStartedAt = Date.now()
  const host = describeHost()
  say(`scorebridge bench — ${host.nproc} CPUs (${host.cpu}), ${host.memoryGb} GB RAM (${host.freeGb} GB free), Node ${host.node}`)
  say(`load average at start: ${loadAverage()} (other work on this machine skews latency)`)
  say(`clip follow-ups: ${process.env["SCOREBRIDGE_BENCH_FOLLOW_UPS"] === "off" ? "off (SCOREBRIDGE_BENCH_FOLLOW_UPS=off)" : "on"}`)
  if (slowDiskOnly) say("--slow-disk-only: no decoder, steady, saturated, backlog or chatter phase")
  if (backlogOnly) say("--backlog-only: the backlog phase alone")
  if (chatterOnly) say("--chatter-only: the chatter phase alone")
  const heading = headings(phaseCount())

  const cleanup = makeCleanup()
  try {
    const dir = tempDir("bench")
    cleanup.defer(() => rmSync(dir, { recursive: true, force: true }))
    const first = backlogOnly || chatterOnly ? undefined : await mainPhases(heading, cleanup, dir, benchStartedAt)
    const backlog = slowDiskOnly || chatterOnly ? undefined : await backlogPhase(heading, cleanup, dir)
    const chatter = slowDiskOnly || backlogOnly ? undefined : await chatterPhase(heading, cleanup, dir)
    summarize(heading, {
      benchStartedAt,
      host,
      placeCount,
      loaded: first?.loaded,
      main: first?.main,
      http429: (first?.http429 ?? 0) + (backlog?.http429 ?? 0),
      backlog,
      chatter
    })
  } finally {
    await cleanup.releaseAll()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exitCode = 1
})
