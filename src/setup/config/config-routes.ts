import { Effect, Option, Schema } from "effect"
import { readConfig } from "../../config/load.ts"
import { ok, problem, type SetupReply, type SetupRequest, type SetupRoute } from "../setup-route.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { recentChanges, recordChange } from "./change-journal.ts"
import { type ConfigChange, makeSaveLock, prepareChange, previewDiff, type Saved, saveChange } from "./config-save.ts"
import type { ConfigProblem } from "../../config/load.ts"
import type { ReloadOutcome } from "./daemon-reload.ts"
import { originOf } from "../../config/urls.ts"
import { readConfigFile } from "./config-document.ts"
import { configView } from "./config-view.ts"
import { isPlain } from "./map-edits.ts"
import { plainConfig } from "./secret-destinations.ts"
import { reloadDaemon } from "./daemon-reload.ts"
import { cleanToken, storeToken, tokenCredentialName } from "./token-store.ts"

const Entry = Schema.Record(Schema.String, Schema.Unknown)

/** A `buttons:` entry naming the program it runs (`gpio.command`): never one the page saves. */
const namesProgram = (entry: Readonly<Record<string, unknown>>): boolean => {
  const gpio = entry["gpio"]
  return typeof gpio === "object" && gpio !== null && Object.hasOwn(gpio, "command")
}

const ChangeBody = Schema.Struct({
  fingerprint: Schema.String,
  replaces: Schema.NullOr(Schema.String),
  place: Entry,
  buttons: Schema.optionalKey(Schema.Array(Entry)),
  service: Schema.optionalKey(Schema.Struct({ baseUrl: Schema.optionalKey(Schema.String), companyKey: Schema.optionalKey(Schema.String) })),
  mqtt: Schema.optionalKey(Schema.Struct({
    url: Schema.String,
    // Given again when the broker's address changes, or the file's login is dropped (secret-destinations.ts).
    username: Schema.optionalKey(Schema.String),
    password: Schema.optionalKey(Entry)
  })),
  // Given again when the service's address changes, or the stored token is dropped.
  token: Schema.optionalKey(Schema.String)
})

/** What the page sends to `POST /api/preview` and `POST /api/save` (src/setup/page/browser/ builds it). */
export type ChangeBody = typeof ChangeBody.Encoded

/** `POST /api/preview`'s answer. */
export interface PreviewAnswer {
  readonly valid: boolean
  readonly problems: ReadonlyArray<ConfigProblem>
  readonly diff: string
  readonly fingerprint: string
  readonly secrets: ReadonlyArray<string>
}

/** `POST /api/save`'s answer once written; a 422 is a {@link RefusedAnswer}. */
export type SavedAnswer = Pick<Extract<Saved, { readonly _tag: "Saved" }>, "fingerprint" | "kept" | "reload" | "secrets"> & { readonly saved: true }

/** A 422 of `POST /api/preview` or `POST /api/save`: nothing written, and why. */
export interface RefusedAnswer {
  readonly error: string
  readonly problems: ReadonlyArray<ConfigProblem>
}

/** `POST /api/token`'s answer: `reload` when a bridge that reads the stored token was restarted with it. */
export interface TokenAnswer {
  readonly stored: true
  readonly reload?: ReloadOutcome
}

/** The request's change, or what is wrong with it in words. */
const changeOf = (body: unknown): Effect.Effect<ConfigChange, string> =>
  Schema.decodeUnknownEffect(ChangeBody)(body).pipe(
    Effect.mapError((error) => `the change is not as expected: ${error.message}`),
    Effect.flatMap((change) => {
      if (typeof change.place["key"] !== "string") return Effect.fail("the place has no key")
      const buttons = change.buttons ?? []
      if (buttons.some((button) => typeof button["name"] !== "string")) return Effect.fail("a button source has no name")
      // The page never names a program to run: only a config edited by hand names another gpiomon.
      if (buttons.some(namesProgram)) return Effect.fail("buttons: gpio.command names a program, which the page may not: leave it out (the package's gpiomon is used)")
      if (change.token === undefined) return Effect.succeed({ ...change, buttons })
      const given = cleanToken(change.token)
      return "problem" in given ? Effect.fail(given.problem) : Effect.succeed({ ...change, buttons, token: given.token })
    })
  )

/** Per server: one save at a time, and whether a token stored through the page waits for the config and a restart. */
interface TokenState {
  /** The save sets service.token to { credential: token }. */
  credential: boolean
  /** The next reload restarts the unit: systemd loads the credential only at start. */
  restart: boolean
}

const conflict = (fingerprint: string): SetupReply => ({
  status: 409,
  json: { error: "config.yaml changed since this page read it (edited by hand, or saved from another browser): nothing was written; reload the page to see it", fingerprint }
})

const savedReply = (saved: Saved): SetupReply => {
  switch (saved._tag) {
    case "Conflict":
      return conflict(saved.fingerprint)
    case "Refused":
      return { status: 422, json: { error: saved.reason, problems: saved.problems } satisfies RefusedAnswer }
    case "Invalid":
      return { status: 422, json: { error: "the config would not be valid: nothing was written", problems: saved.problems } satisfies RefusedAnswer }
    case "Failed":
      return problem(500, saved.error)
    case "Saved":
      return ok({ saved: true, fingerprint: saved.fingerprint, kept: saved.kept, reload: saved.reload, secrets: saved.secrets } satisfies SavedAnswer)
  }
}

const withChange = (request: SetupRequest, then: (change: ConfigChange) => Effect.Effect<SetupReply>): Effect.Effect<SetupReply> =>
  changeOf(request.body).pipe(Effect.matchEffect({ onFailure: (error) => Effect.succeed(problem(400, error)), onSuccess: then }))

const preview = (environment: SetupEnvironment, token: TokenState) => (request: SetupRequest) =>
  withChange(request, (change) =>
    Effect.gen(function*() {
      const prepared = yield* prepareChange(environment, change, token.credential)
      if (prepared._tag === "Conflict") return conflict(prepared.fingerprint)
      if (prepared._tag === "Refused") return { status: 422, json: { error: prepared.reason, problems: prepared.problems } satisfies RefusedAnswer }
      const diff = yield* previewDiff(environment, prepared)
      const secrets = prepared.secrets.notes.map((note) => note.replace(/ (was|were) dropped/u, " will be dropped"))
      return ok({ valid: prepared.problems.length === 0, problems: prepared.problems, diff, fingerprint: prepared.current.fingerprint, secrets } satisfies PreviewAnswer)
    }).pipe(Effect.catch((error: string) => Effect.succeed(problem(500, error)))))

const save = (environment: SetupEnvironment, token: TokenState, lock = makeSaveLock()) => (request: SetupRequest) =>
  withChange(request, (change) =>
    saveChange(environment, lock, change, request.session, token).pipe(
      Effect.tap((saved) =>
        Effect.sync(() => {
          if (saved._tag === "Saved" && saved.tokenStored) token.credential = true
          if (saved._tag === "Saved" && saved.reload.ok && environment.reload._tag === "systemd") token.restart = false
        })
      ),
      Effect.map(savedReply)
    ))

/** PUT /api/token's body; the value's own rules (one printable word) are cleanToken's, as scorebridge-set-token has them. */
const TokenBody = Schema.Struct({ token: Schema.String })
const decodeTokenBody = Schema.decodeUnknownOption(TokenBody)

const storeTokenRoute = (environment: SetupEnvironment, token: TokenState) => (request: SetupRequest) => {
  const given = cleanToken(Option.getOrUndefined(Option.map(decodeTokenBody(request.body), (body) => body.token)))
  if ("problem" in given) return Effect.succeed(problem(400, given.problem))
  return Effect.tryPromise({
    try: async () => {
      await storeToken(environment, given.token, await serviceOrigin(environment))
      token.credential = true
      token.restart = true
      await recordChange(environment, { session: request.session, change: "token replaced", places: [], keys: ["credentials/token"] })
    },
    // The error names the file and the reason (errno), never the value.
    catch: (cause) => problem(500, `the token could not be stored in ${environment.credentialsDirectory}: ${(cause as NodeJS.ErrnoException).code ?? "unknown error"}`)
  }).pipe(
    Effect.andThen(() => restartOnNewToken(environment, token)),
    Effect.map((reload) => ok((reload === undefined ? { stored: true } : { stored: true, reload }) satisfies TokenAnswer)),
    Effect.catch((reply) => Effect.succeed(reply))
  )
}

/** The origin of the service the config names now: what a token entered on the page is for. */
const serviceOrigin = async (environment: SetupEnvironment): Promise<string | undefined> => {
  const service = plainConfig((await readConfigFile(environment.configPath)).text)["service"]
  const baseUrl = isPlain(service) ? service["baseUrl"] : undefined
  return typeof baseUrl === "string" ? originOf(baseUrl) : undefined
}

/**
 * A token replaced on a bridge that already reads it (service.token is { credential: token } in a
 * valid config) takes effect now, as scorebridge-set-token's restart does: the daemon would go on
 * with the old, maybe revoked, one until some later save. Otherwise the save that points the
 * config at it restarts the daemon.
 */
const restartOnNewToken = (environment: SetupEnvironment, token: TokenState) =>
  readConfig(environment.configPath).pipe(
    Effect.map((loaded) => loaded.config.service.token.credential === tokenCredentialName),
    Effect.catchTag("ConfigError", () => Effect.succeed(false)),
    Effect.flatMap((reads) => (reads ? reloadDaemon(environment, { restart: true }) : Effect.succeed(undefined))),
    Effect.tap((reload) =>
      Effect.sync(() => {
        if (reload?.ok === true) token.restart = false
      })
    )
  )

/** The config and saving: `GET /api/config`, `POST /api/token`, `POST /api/preview`, `POST /api/save`, `GET /api/journal`. */
export const configRoutes = (environment: SetupEnvironment): ReadonlyArray<SetupRoute> => {
  const token: TokenState = { credential: false, restart: false }
  return [
    { method: "GET", path: "/api/config", handle: () => configView(environment).pipe(Effect.map(ok)) },
    { method: "POST", path: "/api/token", handle: storeTokenRoute(environment, token) },
    { method: "POST", path: "/api/preview", handle: preview(environment, token) },
    { method: "POST", path: "/api/save", handle: save(environment, token) },
    { method: "GET", path: "/api/journal", handle: () => Effect.promise(() => recentChanges(environment)).pipe(Effect.map((changes) => ok({ changes }))) }
  ]
}
