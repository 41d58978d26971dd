import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Redacted, Schema } from "effect"
import type { SecretRef } from "./secret-ref.ts"

/** A secret reference that does not lead to a usable secret. Never carries the value. */
export class SecretError extends Schema.TaggedError<SecretError>()("SecretError", {
  /** What the secret is for, e.g. "service.token". */
  what: Schema.String,
  /** What is wrong and what to do, in plain words. */
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.what}: ${this.reason}`
  }
}

const readFailure = (cause: unknown, file: string, hint: string): string => {
  switch ((cause as { code?: unknown } | null)?.code) {
    case "ENOENT":
      return `file ${file} does not exist${hint}`
    case "EACCES":
    case "EPERM":
      return `file ${file} cannot be read by this user (permission denied)${hint}`
    case "EISDIR":
      return `${file} is a directory, not a file`
    default:
      return `file ${file} cannot be read (${(cause as { code?: unknown } | null)?.code ?? "unknown error"})`
  }
}

const fromFile = (file: string, what: string, hint: string) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (cause) => new SecretError({ what, reason: readFailure(cause, file, hint) })
  })

const rawSecret = (ref: SecretRef, what: string): Effect.Effect<{ value: string; from: string }, SecretError> => {
  if (ref.env !== undefined) {
    const value = process.env[ref.env]
    return value === undefined
      ? Effect.fail(new SecretError({ what, reason: `environment variable ${ref.env} is not set; set it (e.g. in the unit's EnvironmentFile=) or use file: / credential:` }))
      : Effect.succeed({ value, from: `environment variable ${ref.env}` })
  }
  if (ref.file !== undefined) {
    return fromFile(ref.file, what, "").pipe(Effect.map((value) => ({ value, from: `file ${ref.file}` })))
  }
  const name = ref.credential ?? ""
  const directory = process.env["CREDENTIALS_DIRECTORY"]
  if (directory === undefined || directory === "") {
    return Effect.fail(new SecretError({
      what,
      reason: `credential "${name}" needs $CREDENTIALS_DIRECTORY, which systemd sets only for a unit with LoadCredential=${name}:/path/to/secret; outside systemd use env: or file:`
    }))
  }
  const file = join(directory, name)
  return fromFile(file, what, `; add LoadCredential=${name}:/path/to/secret to the unit`).pipe(
    Effect.map((value) => ({ value, from: `credential ${name}` }))
  )
}

/**
 * Reads a secret from where its reference points. The value is trimmed
 * (files end with a newline) and must be a single printable word: it goes
 * into an HTTP header or an MQTT CONNECT as is.
 */
export const resolveSecret = Effect.fn("resolveSecret")(function*(
  ref: SecretRef,
  what: string
): Effect.fn.Return<Redacted.Redacted<string>, SecretError> {
  const { value, from } = yield* rawSecret(ref, what)
  const secret = value.trim()
  if (secret === "") return yield* new SecretError({ what, reason: `${from} is empty; put the secret there` })
  if (/[^\x21-\x7e]/u.test(secret)) {
    return yield* new SecretError({ what, reason: `${from} contains spaces, line breaks or non-ASCII characters; it must hold only the secret` })
  }
  return Redacted.make(secret, { label: what })
})
