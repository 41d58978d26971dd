import { closeSync, fsyncSync, openSync, rmSync, writeSync } from "node:fs"
import { Console, Deferred, Effect, Option, Schedule } from "effect"
import { captureLine } from "../replay/capture-format.ts"
import { CommissioningFailure, exitUsage } from "./commissioning-failure.ts"
import { type ConsoleSource, openSource } from "./source.ts"

export interface CaptureOptions {
  readonly source: ConsoleSource
  readonly out: string
  /** Stop after this long; undefined: until SIGINT or SIGTERM. */
  readonly seconds: number | undefined
  readonly progressSeconds: number
}

interface Totals {
  /** Set once the console is there (port open, console connected, first datagram): before that there is nothing to summarise. */
  recording: boolean
  bytes: number
  chunks: number
  startedAt: number
}

/** The port went away, the console disconnected, or the file could not be written: what was recorded until then stays in the file. */
const exitCaptureCut = 1

const code = (cause: unknown): string => String((cause as { code?: unknown } | null)?.code ?? cause)

const openOut = (out: string, totals: Totals) =>
  Effect.acquireRelease(
    Effect.try({
      // wx: an earlier capture is evidence for support; never overwrite it.
      try: () => openSync(out, "wx", 0o644),
      catch: (cause) =>
        new CommissioningFailure({
          message: code(cause) === "EEXIST" ? `${out} already exists: choose another --out, or delete it first` : `cannot create ${out}: ${code(cause)}`,
          exitCode: exitUsage
        })
    }),
    (fd) => Effect.sync(() => {
      fsyncSync(fd)
      closeSync(fd)
      // The console never came: an empty file would only pass for a capture of a silent line.
      if (!totals.recording) rmSync(out, { force: true })
    })
  )

const cutShort = (reason: string, out: string, totals: Totals) =>
  new CommissioningFailure({
    message: totals.recording ? `Capture cut short: ${reason}; what arrived until then is in ${out}` : `Nothing captured: ${reason}`,
    exitCode: exitCaptureCut
  })

const elapsed = (totals: Totals) => `${Math.round((Date.now() - totals.startedAt) / 1000)} s`

const record = Effect.fnUntraced(function*(options: CaptureOptions, totals: Totals) {
  const fd = yield* openOut(options.out, totals)
  const writeFailed = yield* Deferred.make<string>()
  // Each chunk is written before the next arrives, so Ctrl-C or kill -9 loses at most the chunk in flight.
  const session = yield* openSource(options.source, (chunk) => {
    try {
      writeSync(fd, captureLine(chunk))
      totals.recording = true
      totals.bytes += chunk.bytes.length
      totals.chunks++
    } catch (cause) {
      Deferred.doneUnsafe(writeFailed, Effect.succeed(`writing ${options.out} failed: ${code(cause)}`))
    }
  })
  if (session.waiting !== undefined) yield* Console.log(`${session.waiting} (Ctrl-C gives up)`)
  const from = yield* Effect.raceFirst(session.arrived, Effect.flatMap(session.lost, (reason) => Effect.fail(cutShort(reason, options.out, totals))))
  totals.recording = true
  totals.startedAt = Date.now()
  yield* Console.log(`Recording ${from} into ${options.out}${options.seconds === undefined ? " until Ctrl-C" : ` for ${options.seconds} s (Ctrl-C stops earlier)`}…`)
  yield* Effect.suspend(() => Console.log(`  ${totals.bytes} bytes in ${totals.chunks} chunks, ${elapsed(totals)}`)).pipe(
    Effect.repeat(Schedule.spaced(options.progressSeconds * 1000)),
    Effect.delay(options.progressSeconds * 1000),
    Effect.forkScoped
  )
  const cut = yield* Effect.raceFirst(
    Effect.map(Effect.raceFirst(session.lost, Deferred.await(writeFailed)), Option.some),
    options.seconds === undefined ? Effect.never : Effect.as(Effect.sleep(options.seconds * 1000), Option.none<string>())
  )
  if (cut._tag === "Some") return yield* cutShort(cut.value, options.out, totals)
})

/**
 * Records a console's raw bytes (serial, TCP or UDP) with their receive times into a new NDJSON capture
 * (`src/replay/capture-format.ts`) for `scorebridge replay` and support. The
 * summary is printed however it ends, Ctrl-C included.
 */
export const capture = (options: CaptureOptions) => {
  const totals: Totals = { recording: false, bytes: 0, chunks: 0, startedAt: Date.now() }
  return Effect.scoped(record(options, totals)).pipe(
    Effect.ensuring(Effect.suspend(() =>
      !totals.recording
        ? Effect.void
        : Console.log([
          `Captured ${totals.bytes} bytes in ${totals.chunks} chunks over ${elapsed(totals)} into ${options.out}.`,
          `Replay it: scorebridge replay --protocol PROTOCOL --sport SPORT ${options.out}`
        ].join("\n"))
    ))
  )
}
