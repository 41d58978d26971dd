import { Schema } from "effect"

/**
 * Where a secret lives. The config never holds a secret's value: a venue
 * config gets copied, mailed and pasted into tickets.
 */
const EnvName = Schema.String.check(
  Schema.isPattern(/^[A-Za-z_][A-Za-z0-9_]*$/u, {
    // No input echo: people paste the token itself here by mistake.
    message: "must be the NAME of an environment variable (letters, digits, _), not the secret itself"
  })
).annotate({ description: "Name of the environment variable holding the secret." })

const SecretFile = Schema.String.check(
  Schema.isPattern(/^\//u, { message: "must be an absolute path (starting with /) to the file holding the secret" })
).annotate({ description: "Absolute path of a file whose content (trimmed) is the secret; keep it mode 0600." })

const CredentialName = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_.-]+$/u, {
    message: "must be a credential name as given to systemd LoadCredential= (letters, digits, . _ -)"
  })
).annotate({
  description: "Name of a systemd credential (LoadCredential=NAME:/path): read from $CREDENTIALS_DIRECTORY/NAME."
})

const sources = ["env", "file", "credential"] as const

const exactlyOneSource = Schema.makeFilter<{ readonly env?: string; readonly file?: string; readonly credential?: string }>(
  (ref) => {
    const given = sources.filter((key) => ref[key] !== undefined)
    if (given.length === 1) return undefined
    return given.length === 0
      ? "give one of env:, file: or credential:"
      : `give only one of env:, file: or credential: (found ${given.join(" and ")})`
  },
  { toJsonSchema: () => ({ minProperties: 1, maxProperties: 1 }) }
)

const fields = {
  env: Schema.optionalKey(EnvName),
  file: Schema.optionalKey(SecretFile),
  credential: Schema.optionalKey(CredentialName)
}

/** A secret reference field; `what` says which secret, for the JSON Schema and editors. */
export const secretRef = (what: string) =>
  Schema.Struct(fields).annotate({
    // Replaces the default "expected object, got <value>": the value may be an inline secret.
    message: "must be a reference to the secret — { env: NAME }, { file: /path } or { credential: NAME } — never the secret itself",
    description: `${what}: exactly one of env, file or credential. Never write the secret itself in the config.`
  }).check(exactlyOneSource)

export type SecretRef = ReturnType<typeof secretRef>["Type"]

/** Short human description of where a secret comes from, safe to print. */
export const describeSecretRef = (ref: SecretRef): string =>
  ref.env !== undefined
    ? `environment variable ${ref.env}`
    : ref.file !== undefined
    ? `file ${ref.file}`
    : `systemd credential ${ref.credential ?? ""}`
