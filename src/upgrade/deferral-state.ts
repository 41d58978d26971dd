import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Schema } from "effect"

const fileName = "upgrade-window.json"

/** On disk: when the current run of deferrals began, as ISO 8601, so whoever opens the file can read it. */
const DeferralFile = Schema.fromJsonString(Schema.Struct({ deferredSince: Schema.DateFromString }))

export class DeferralStateError extends Schema.TaggedError<DeferralStateError>()("DeferralStateError", {
  file: Schema.String,
  message: Schema.String
}) {}

const failure = (file: string, doing: string) => (cause: unknown) =>
  new DeferralStateError({ file, message: `${doing} ${file}: ${cause instanceof Error ? cause.message : String(cause)}` })

/**
 * When upgrades began to be deferred, or null (none deferred, or no file yet). A file that is not
 * the state (cut short by a power loss, edited by hand) is an error: the caller starts a new run.
 */
export const readDeferredSince = (directory: string): Effect.Effect<number | null, DeferralStateError> => {
  const file = join(directory, fileName)
  return Effect.tryPromise({
    try: () => readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? null : Promise.reject(error))),
    catch: failure(file, "cannot read")
  }).pipe(
    Effect.flatMap((text) =>
      text === null
        ? Effect.succeed(null)
        : Schema.decodeUnknownEffect(DeferralFile)(text).pipe(
          Effect.map((state) => state.deferredSince.getTime()),
          Effect.mapError(() => new DeferralStateError({ file, message: `${file} is not an upgrade-window state: starting the deferral anew` }))
        ))
  )
}

/** Keeps `deferredSince`, or removes the file when it is null (a window was found). */
export const writeDeferredSince = (directory: string, deferredSince: number | null): Effect.Effect<void, DeferralStateError> => {
  const file = join(directory, fileName)
  if (deferredSince === null) {
    return Effect.tryPromise({ try: () => rm(file, { force: true }), catch: failure(file, "cannot remove") })
  }
  const text = `${Schema.encodeSync(DeferralFile)({ deferredSince: new Date(deferredSince) })}\n`
  // Written beside and renamed: a power loss leaves the old state or the new one, never half of one.
  const temporary = `${file}.tmp`
  return Effect.tryPromise({
    try: async () => {
      await mkdir(directory, { recursive: true })
      await writeFile(temporary, text, { mode: 0o644 })
      await rename(temporary, file)
    },
    catch: failure(file, "cannot write")
  })
}
