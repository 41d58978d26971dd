import { Effect, Semaphore } from "effect"
import { protocols } from "../../../adapters/registry.ts"
import { type ConfigProblem, parseConfig } from "../../config/load.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { writeAtomically } from "./atomic-file.ts"
import { recordChange } from "./change-journal.ts"
import { type ConfigEdit, editConfig, type EditedConfig, isRefused } from "./config-edit.ts"
import { configDiff } from "./config-diff.ts"
import { type ConfigFile, configSkeleton, fingerprintOf, readConfigFile } from "./config-document.ts"
import { reloadDaemon, type ReloadOutcome } from "./daemon-reload.ts"
import { keepVersion } from "./kept-versions.ts"
import { redactedText } from "./secret-redaction.ts"
import { plainConfig, type SecretOutcome, secretOutcome } from "./secret-destinations.ts"
import { rebindToken, removeToken, storeToken, storedTokenValue } from "./token-store.ts"

/**
 * A preview's or a save's request: the edit and the fingerprint of the file the page saw; `token`
 * given again with a new service address (already cleaned: token-store's cleanToken).
 */
export type ConfigChange = Omit<ConfigEdit, "tokenCredential" | "dropBrokerLogin"> & { readonly fingerprint: string; readonly token?: string | undefined }

export type Prepared =
  /** The file changed since the page read it (a hand edit, another browser): nothing is written. */
  | { readonly _tag: "Conflict"; readonly fingerprint: string }
  /** The file cannot be edited (not YAML, the place gone). */
  | { readonly _tag: "Refused"; readonly reason: string; readonly problems: ReadonlyArray<ConfigProblem> }
  | {
    readonly _tag: "Ready"
    readonly current: ConfigFile
    readonly edited: EditedConfig
    readonly problems: ReadonlyArray<ConfigProblem>
    /** What the save does to the token and the broker login (a changed address drops them unless given again). */
    readonly secrets: SecretOutcome
  }

export type Saved =
  | Exclude<Prepared, { readonly _tag: "Ready" }>
  | { readonly _tag: "Invalid"; readonly problems: ReadonlyArray<ConfigProblem> }
  | { readonly _tag: "Failed"; readonly error: string }
  | {
    readonly _tag: "Saved"
    readonly fingerprint: string
    readonly kept: string | null
    readonly reload: ReloadOutcome
    /** The token now stored is the one this save carried (the page's `credential: token`). */
    readonly tokenStored: boolean
    readonly secrets: ReadonlyArray<string>
  }

/** The problems `parseConfig` finds in a config's text (the daemon's own checks), none for a valid one; no secret in them. */
export const configProblems = (text: string, file: string, secrets: ReadonlyArray<string> = []): Effect.Effect<ReadonlyArray<ConfigProblem>> =>
  parseConfig(text, file, protocols).pipe(
    Effect.as([] as ReadonlyArray<ConfigProblem>),
    Effect.catchTag("ConfigError", (error) =>
      Effect.succeed(error.problems.map((problem) => ({ ...problem, message: redactedText(problem.message, secrets) }))))
  )

const ioFailure = (what: string) => (cause: unknown): string => {
  const code = (cause as NodeJS.ErrnoException | null)?.code
  return code === "EACCES" || code === "EPERM"
    ? `${what}: permission denied (run scorebridge setup with sudo)`
    : `${what}: ${cause instanceof Error ? cause.message : String(cause)}`
}

/** The edit made on the file as it is now, and checked; nothing written. */
export const prepareChange = Effect.fn("prepareChange")(function*(environment: SetupEnvironment, change: ConfigChange, tokenCredential: boolean) {
  const current = yield* Effect.tryPromise({ try: () => readConfigFile(environment.configPath), catch: ioFailure(`${environment.configPath} cannot be read`) })
  if (change.fingerprint !== current.fingerprint) return { _tag: "Conflict", fingerprint: current.fingerprint } satisfies Prepared
  const secrets = yield* tokenValues(environment)
  const base = current.exists && current.text.trim() !== "" ? current.text : configSkeleton
  const secretsNow = secretsOf(base, change)
  const edited = editConfig(base, {
    ...change,
    tokenCredential: tokenCredential || change.token !== undefined || secretsNow.dropToken,
    dropBrokerLogin: secretsNow.dropBrokerLogin
  })
  if (isRefused(edited)) {
    return { _tag: "Refused", reason: edited.reason, problems: yield* configProblems(current.text, environment.configPath, secrets) } satisfies Prepared
  }
  const problems = yield* configProblems(edited.text, environment.configPath, secrets)
  return { _tag: "Ready", current, edited, problems, secrets: secretsNow } satisfies Prepared
})

const secretsOf = (text: string, change: ConfigChange): SecretOutcome =>
  secretOutcome(plainConfig(text), {
    baseUrl: change.service?.baseUrl,
    mqttUrl: change.mqtt?.url,
    tokenGiven: change.token !== undefined,
    brokerLoginGiven: change.mqtt?.username !== undefined || change.mqtt?.password !== undefined
  })

export const tokenValues = (environment: SetupEnvironment): Effect.Effect<ReadonlyArray<string>> =>
  Effect.promise(() => storedTokenValue(environment)).pipe(Effect.map((token) => (token === undefined ? [] : [token])))

/** The diff the page shows: the file now against the file after the save, secrets out. */
export const previewDiff = (environment: SetupEnvironment, ready: Extract<Prepared, { readonly _tag: "Ready" }>): Effect.Effect<string> =>
  tokenValues(environment).pipe(Effect.map((secrets) => configDiff(environment.configPath, ready.current.exists ? ready.current.text : "", ready.edited.text, secrets)))

// What the save did to the secrets, for the journal: never a value.
const secretKeys = (change: ConfigChange, secrets: SecretOutcome): ReadonlyArray<string> => [
  ...(change.token !== undefined || secrets.dropToken ? ["credentials/token"] : []),
  ...(secrets.dropBrokerLogin ? ["mqtt.username", "mqtt.password"] : [])
]

const secretWords = (change: ConfigChange, secrets: SecretOutcome): string =>
  [
    ...(change.token !== undefined ? ["; token replaced"] : secrets.dropToken ? ["; token dropped (the service address changed)"] : []),
    ...(secrets.dropBrokerLogin ? ["; broker login dropped (the broker address changed)"] : [])
  ].join("")

const changeWords = (change: ConfigChange, secrets: SecretOutcome): string => `${placeWords(change)}${secretWords(change, secrets)}`

const placeWords = (change: ConfigChange): string => {
  const key = String(change.place["key"])
  const place = change.replaces === null ? `place ${key} added` : change.replaces === key ? `place ${key} edited` : `place ${change.replaces} edited (now ${key})`
  const buttons = change.buttons.map((button) => String(button["name"]))
  return buttons.length === 0 ? place : `${place}; buttons ${buttons.join(", ")} saved`
}

/** The token the save carries stored, or the one the new service address must not get removed. */
const secretSaved = (environment: SetupEnvironment, secrets: SecretOutcome, change: ConfigChange) =>
  Effect.tryPromise({
    try: async () => {
      if (change.token !== undefined) await storeToken(environment, change.token, secrets.origin)
      else if (secrets.dropToken) await removeToken(environment)
      else if (secrets.rebindToken && secrets.origin !== undefined) await rebindToken(environment, secrets.origin)
    },
    // The error names the directory and the reason (errno), never the value.
    catch: (cause) => `the token could not be changed in ${environment.credentialsDirectory}: ${(cause as NodeJS.ErrnoException).code ?? "unknown error"}; nothing was written`
  })

/** The previous version kept, the new file written whole, the change journaled. */
const written = (environment: SetupEnvironment, ready: Extract<Prepared, { readonly _tag: "Ready" }>, change: ConfigChange, session: string) =>
  Effect.tryPromise({
    try: async () => {
      const { current, edited } = ready
      const kept = current.exists ? await keepVersion(environment, current.text, current.access) : null
      await writeAtomically(environment.configPath, edited.text, current.access)
      await recordChange(environment, { session, change: changeWords(change, ready.secrets), places: edited.places, keys: [...edited.keys, ...secretKeys(change, ready.secrets)] })
      return kept
    },
    catch: ioFailure(`${environment.configPath} could not be written (it is unchanged)`)
  })

/**
 * Saves one edit: compared with the fingerprint the page saw, checked, kept, written, journaled,
 * one save at a time (`lock`), so two browsers cannot both pass the comparison. Then the daemon
 * is reloaded, outside the lock.
 */
export const saveChange = Effect.fn("saveChange")(function*(
  environment: SetupEnvironment,
  lock: Semaphore.Semaphore,
  change: ConfigChange,
  session: string,
  token: { readonly credential: boolean; readonly restart: boolean }
) {
  const outcome: Saved | Written = yield* lock.withPermits(1)(
    Effect.gen(function*() {
      const prepared = yield* prepareChange(environment, change, token.credential)
      if (prepared._tag !== "Ready") return prepared
      if (prepared.problems.length > 0) return { _tag: "Invalid", problems: prepared.problems } satisfies Saved
      // The secret first: a config write that fails after it leaves no secret pointed at the new address.
      yield* secretSaved(environment, prepared.secrets, change)
      // Saved again as it is: nothing to keep or journal, but the daemon is still reloaded as asked.
      if (prepared.current.exists && prepared.edited.text === prepared.current.text) {
        return { _tag: "Written", fingerprint: prepared.current.fingerprint, kept: null, secrets: prepared.secrets } as const
      }
      const kept = yield* written(environment, prepared, change, session)
      return { _tag: "Written", fingerprint: fingerprintOf(prepared.edited.text), kept, secrets: prepared.secrets } as const
    })
  ).pipe(Effect.catch((error: string) => Effect.succeed({ _tag: "Failed", error } satisfies Saved)))
  if (outcome._tag !== "Written") return outcome
  const tokenStored = change.token !== undefined
  // A unit loads its credential only at start: a token replaced or dropped needs a restart, not a reload.
  const reload = yield* reloadDaemon(environment, { restart: token.restart || tokenStored || outcome.secrets.dropToken })
  return { _tag: "Saved", fingerprint: outcome.fingerprint, kept: outcome.kept, reload, tokenStored, secrets: outcome.secrets.notes } satisfies Saved
})

interface Written {
  readonly _tag: "Written"
  readonly fingerprint: string
  readonly kept: string | null
  readonly secrets: SecretOutcome
}

export const makeSaveLock = (): Semaphore.Semaphore => Semaphore.makeUnsafe(1)
