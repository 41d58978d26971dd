import { Effect, FileSystem, Option, type PlatformError, Result } from "effect"
import { captureExtension, parseCapture } from "./capture-format.ts"
import { defaultTiming, evenlyTimed, sidecarTimed } from "./chunk-timing.ts"
import { ReplayInputError } from "./replay-input-error.ts"

/** How to time a raw capture; all absent for a `.ndjson` capture, which carries its own times. */
export interface TimingRequest {
  /** Path of a `.times` sidecar. */
  readonly timestamps: Option.Option<string>
  readonly start: Option.Option<number>
  readonly chunkMs: Option.Option<number>
  readonly chunkBytes: Option.Option<number>
}

const reasons: Partial<Record<string, string>> = {
  NotFound: "no such file",
  PermissionDenied: "permission denied",
  BadResource: "not a readable file"
}

const readFailure = (what: string, path: string) => (error: PlatformError.PlatformError) =>
  new ReplayInputError({
    message: `cannot read ${what} ${path}: ${reasons[error.reason._tag] ?? error.reason.description ?? error.reason._tag}`
  })

const fromProblem = (path: string) => <A>(result: Result.Result<A, string>) =>
  Effect.fromResult(Result.mapError(result, (problem) => new ReplayInputError({ message: `${path}: ${problem}` })))

/**
 * The chunks of a recorded file with their receive times: a `.ndjson` capture
 * (capture-format.ts) as recorded; a raw capture timed by its `.times` sidecar,
 * or else evenly (chunk-timing.ts).
 */
export const recordedChunks = Effect.fn("recordedChunks")(function*(path: string, timing: TimingRequest) {
  const fs = yield* FileSystem.FileSystem
  const evenFlags = [["--start", timing.start], ["--chunk-ms", timing.chunkMs], ["--chunk-bytes", timing.chunkBytes]] as const
  const given = evenFlags.filter(([, value]) => Option.isSome(value)).map(([flag]) => flag)

  if (path.endsWith(captureExtension)) {
    if (Option.isSome(timing.timestamps) || given.length > 0) {
      return yield* new ReplayInputError({
        message: `${path} is a capture with its own receive times: --timestamps, --start, --chunk-ms and --chunk-bytes apply to raw captures only`
      })
    }
    const text = yield* fs.readFileString(path).pipe(Effect.mapError(readFailure("capture", path)))
    return yield* fromProblem(path)(parseCapture(text))
  }

  const bytes = yield* fs.readFile(path).pipe(Effect.mapError(readFailure("capture", path)))
  if (Option.isSome(timing.timestamps)) {
    const sidecar = timing.timestamps.value
    if (given.length > 0) {
      return yield* new ReplayInputError({ message: `--timestamps gives the receive times: drop ${given.join(", ")}` })
    }
    const text = yield* fs.readFileString(sidecar).pipe(Effect.mapError(readFailure("timestamps", sidecar)))
    return yield* fromProblem(sidecar)(sidecarTimed(bytes, text))
  }
  const even = {
    start: Option.getOrElse(timing.start, () => defaultTiming.start),
    chunkMs: Option.getOrElse(timing.chunkMs, () => defaultTiming.chunkMs),
    chunkBytes: Option.getOrElse(timing.chunkBytes, () => defaultTiming.chunkBytes)
  }
  if (even.chunkBytes < 1) return yield* new ReplayInputError({ message: `--chunk-bytes must be at least 1, got ${even.chunkBytes}` })
  if (even.start < 0 || even.chunkMs < 0) {
    return yield* new ReplayInputError({ message: `--start and --chunk-ms are times in ms and must not be negative` })
  }
  return evenlyTimed(bytes, even)
})
