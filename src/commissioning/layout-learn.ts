import { writeFileSync } from "node:fs"
import { createInterface } from "node:readline"
import { Console, Effect, FileSystem, Queue, Result } from "effect"
import type { ReceivedChunk } from "../domain/received.ts"
import { captureExtension, captureLine, parseCapture } from "../replay/capture-format.ts"
import { CommissioningFailure, exitUsage } from "./commissioning-failure.ts"
import type { LearnableProtocol } from "./layout-frames.ts"
import { describeNoted, example, type Observation, parseAt, parseNoted } from "./layout-observation.ts"
import { learnReport } from "./layout-report.ts"
import { type ConsoleSource, openSource } from "./source.ts"
import { clockLabel } from "../timeline/time-ticks.ts"

const usage = (message: string) => new CommissioningFailure({ message, exitCode: exitUsage })

/** "14:02:05", the venue's clock as the status page and the setup page show it: what the technician's watch says. */
export const clockTime = (ms: number): string => clockLabel(ms, true)

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`

export interface OfflineLearn {
  readonly protocol: LearnableProtocol
  readonly capture: string
  /** `SECONDS: home 3 guest 5`, seconds from the capture's first chunk. */
  readonly at: ReadonlyArray<string>
}

/** Reads a `.ndjson` capture: its chunks with receive times, or a failure naming the file and line. */
const readCapture = Effect.fnUntraced(function*(path: string) {
  if (!path.endsWith(captureExtension)) {
    return yield* usage(`${path}: learn reads a ${captureExtension} capture with receive times (scorebridge capture writes one)`)
  }
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(path).pipe(
    Effect.mapError((error) => usage(`cannot read capture ${path}: ${error.reason._tag === "NotFound" ? "no such file" : error.reason._tag}`))
  )
  const parsed = parseCapture(text)
  if (Result.isFailure(parsed)) return yield* usage(`${path}: ${parsed.failure}`)
  if (parsed.success.length === 0) return yield* usage(`${path} holds no chunks`)
  return parsed.success
})

/** `learn --capture FILE --at "SECONDS: …"`: the report for moments given in seconds from the capture's start. Returns the exit code. */
export const learnOffline = Effect.fn("learnOffline")(function*(options: OfflineLearn) {
  if (options.at.length === 0) {
    return yield* usage(`with --capture, give each moment as --at "SECONDS: what the board showed", e.g. --at "42.5: ${example}"`)
  }
  const chunks = yield* readCapture(options.capture)
  const start = chunks[0]!.receivedAt
  const observations: Array<Observation> = []
  for (const text of options.at) {
    const parsed = parseAt(text)
    if ("problem" in parsed) return yield* usage(parsed.problem)
    observations.push({ at: start + parsed.offsetMs, when: seconds(parsed.offsetMs), noted: parsed.noted })
  }
  observations.sort((a, b) => a.at - b.at)
  const report = learnReport(
    { protocol: options.protocol, describeTime: (at) => seconds(at - start), forSupport: options.capture },
    chunks,
    observations
  )
  yield* Console.log(report.lines.join("\n"))
  return report.exitCode
})

export interface LiveLearn {
  readonly protocol: LearnableProtocol
  readonly source: ConsoleSource
  /** Keep the recording as a capture here (for support, or to learn again offline). */
  readonly out: string | undefined
  /** The capture command for this link, when there is no --out. */
  readonly captureHint: string
}

type Typed = { readonly _tag: "line"; readonly text: string; readonly at: number } | { readonly _tag: "end" }

/** The technician's lines on stdin, each stamped when Enter was pressed; `end` at Ctrl-D. */
const typedLines = Effect.gen(function*() {
  const queue = yield* Queue.unbounded<Typed>()
  yield* Effect.acquireRelease(
    Effect.sync(() => {
      const reader = createInterface({ input: process.stdin, terminal: false })
      reader.on("line", (text) => Queue.offerUnsafe(queue, { _tag: "line", text, at: Date.now() }))
      reader.on("close", () => Queue.offerUnsafe(queue, { _tag: "end" }))
      return reader
    }),
    (reader) => Effect.sync(() => {
      reader.close()
      // A pipe left open would keep the process alive after the report.
      process.stdin.destroy()
    })
  )
  return queue
})

const instructions = [
  `Type what the board shows and press Enter, e.g. ${example}`,
  "(any of home, guest, period, clock; two or three moments with different scores; stop the clock or leave it out if it runs).",
  "An empty line or Ctrl-D ends the recording and finds the fields."
].join("\n")

const keep = (out: string, chunks: ReadonlyArray<ReceivedChunk>) =>
  Effect.try({
    try: () => writeFileSync(out, chunks.map(captureLine).join(""), { flag: "wx", mode: 0o644 }),
    catch: (cause) => String((cause as { code?: unknown } | null)?.code ?? cause)
  }).pipe(
    Effect.as(`The recording is in ${out}: learn again from it with --capture ${out} --at "SECONDS: …".`),
    Effect.catch((code) => Effect.succeed(`Could not keep the recording in ${out}: ${code}.`))
  )

/** Records the console into `chunks` while the technician notes moments into `observations`, until an empty line or Ctrl-D. */
const record = (options: LiveLearn, chunks: Array<ReceivedChunk>, observations: Array<Observation>) =>
  Effect.scoped(Effect.gen(function*() {
    const session = yield* openSource(options.source, (chunk) => chunks.push(chunk))
    if (session.waiting !== undefined) yield* Console.log(`${session.waiting} (Ctrl-C gives up)`)
    const from = yield* Effect.raceFirst(
      session.arrived,
      Effect.flatMap(session.lost, (reason) => Effect.fail(new CommissioningFailure({ message: `Nothing recorded: ${reason}`, exitCode: 1 })))
    )
    yield* Console.log(`Recording ${from} for ${options.protocol}.\n${instructions}`)
    yield* Effect.forkScoped(Effect.flatMap(session.lost, (reason) => Console.log(`  ${reason}: recording stopped; note what the board showed, or an empty line to finish.`)))
    const typed = yield* typedLines
    for (;;) {
      const next = yield* Queue.take(typed)
      if (next._tag === "end" || next.text.trim() === "") break
      const noted = parseNoted(next.text)
      if ("problem" in noted) {
        yield* Console.log(`  not noted: ${noted.problem}`)
        continue
      }
      observations.push({ at: next.at, when: clockTime(next.at), noted })
      const bytes = chunks.reduce((sum, c) => sum + c.bytes.length, 0)
      yield* Console.log(`  noted at ${clockTime(next.at)}: ${describeNoted(noted)} (${bytes} bytes recorded so far)`)
    }
  }))

/** `learn` on a live console: records while the technician types moments, then the report. Returns the exit code. */
export const learnLive = Effect.fn("learnLive")(function*(options: LiveLearn) {
  const chunks: Array<ReceivedChunk> = []
  const observations: Array<Observation> = []
  yield* record(options, chunks, observations).pipe(
    // Ctrl-C ends the command, not the recording's worth: what was recorded is kept where --out says (nothing if nothing came).
    Effect.onInterrupt(() =>
      options.out === undefined || chunks.length === 0 ? Effect.void : Effect.flatMap(keep(options.out, chunks), (kept) => Console.log(`\n${kept}`))
    )
  )
  const kept = options.out === undefined ? undefined : yield* keep(options.out, chunks)
  if (observations.length === 0) {
    yield* Console.log(`Nothing noted: run again and type what the board shows, e.g. ${example}${kept === undefined ? "" : `\n${kept}`}`)
    return 1
  }
  const report = learnReport(
    { protocol: options.protocol, describeTime: clockTime, forSupport: options.out ?? options.captureHint },
    chunks,
    observations
  )
  yield* Console.log([...report.lines, ...(kept === undefined ? [] : [kept])].join("\n"))
  return report.exitCode
})
