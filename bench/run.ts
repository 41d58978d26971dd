/**
 * The daemon's performance figures (issue #7): latency of presses and score changes, drain rate,
 * memory and start-up of `bin/scorebridge run` as a separate process serving 8 places, plus the
 * decoders' throughput in-process; then (issue #14) a second daemon whose state directory is on
 * ext4 over a slow device whose every fsync really takes 500 ms (scripts/support/slow-disk.ts): stamp
 * error, click latency and the delay other courts' entries get while one court's write is stalled.
 * Prints figures as it goes and, last, one JSON line.
 *
 *   npm run bench                      # about 11 minutes
 *   npm run bench -- --soak 60         # steady phase of 60 minutes for the heap slope
 *   npm run bench -- --slow-disk-only  # start-up, warm-up and the slow-disk phase only (about 3 minutes)
 *
 * This file only orders the phases; each prints its own lines and returns its figures to the
 * summary (summary.ts), which holds the targets and the JSON line.
 */
import { rmSync } from "node:fs"
import { parseArgs } from "node:util"
import { makeCleanup } from "./cleanup.ts"
import { decoderPhase } from "./decoders.ts"
import { allRequests } from "./deliveries.ts"
import { describeHost, loadAverage } from "./host.ts"
import { recordMachinePressure } from "./machine-pressure.ts"
import { preflight } from "./preflight.ts"
import { headings, say, say429s } from "./report.ts"
import { saturatedPhase } from "./saturated.ts"
import { slowDiskPhase } from "./slow-disk.ts"
import { recordStalls } from "./stalls.mjs"
import { startupPhase } from "./startup.ts"
import { steadyPhase } from "./steady.ts"
import { type LoadedFigures, summarize } from "./summary.ts"
import { tempDir } from "../scripts/support/temp-dir.ts"

const { values: args } = parseArgs({
  options: {
    soak: { type: "string", default: "2.5" },
    backlog: { type: "string", default: "24" },
    "slow-disk-only": { type: "boolean", default: false }
  }
})
const soakMinutes = Number(args.soak)
const backlogPerPlace = Number(args.backlog)
const slowDiskOnly = args["slow-disk-only"]
if (!(soakMinutes > 0 && soakMinutes <= 24 * 60) || !(Number.isInteger(backlogPerPlace) && backlogPerPlace > 0 && backlogPerPlace <= 200)) {
  process.stderr.write("usage: node bench/run.ts [--soak MINUTES (0–1440, default 2.5)] [--backlog ENTRIES_PER_PLACE (default 24)] [--slow-disk-only]\n")
  process.exit(64)
}
const placeCount = 8
preflight()

const main = async () => {
  const benchStartedAt = Date.now()
  const host = describeHost()
  say(`scorebridge bench — ${host.nproc} CPUs (${host.cpu}), ${host.memoryGb} GB RAM (${host.freeGb} GB free), Node ${host.node}`)
  say(`load average at start: ${loadAverage()} (other work on this machine skews latency)`)
  say(`clip follow-ups: ${process.env["SCOREBRIDGE_BENCH_FOLLOW_UPS"] === "off" ? "off (SCOREBRIDGE_BENCH_FOLLOW_UPS=off)" : "on"}`)
  if (slowDiskOnly) say("--slow-disk-only: no decoder, steady or saturated phase")
  const heading = headings(slowDiskOnly ? 3 : 6)
  const decoders = slowDiskOnly ? undefined : await decoderPhase(heading)

  const cleanup = makeCleanup()
  try {
    const dir = tempDir("bench")
    cleanup.defer(() => rmSync(dir, { recursive: true, force: true }))
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
    summarize(heading, { benchStartedAt, host, placeCount, loaded, startupMs, http429: http429 + slowDisk.http429, warnings, slowDisk })
  } finally {
    await cleanup.releaseAll()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exitCode = 1
})
