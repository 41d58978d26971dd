import { Effect } from "effect"
import { parseDocument } from "yaml"
import type { ConfigProblem } from "../../config/load.ts"
import { type VenueClock, venueClockAt } from "../../status/venue-clock.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { readConfigFile } from "./config-document.ts"
import { configProblems, tokenValues } from "./config-save.ts"
import { isPlain, type Plain } from "./map-edits.ts"
import { redactedUrl } from "./secret-redaction.ts"
import { tokenIsStored } from "./token-store.ts"

/** What `GET /api/config` answers: the config as far as it parses, with no secret value in it. */
export interface ConfigView {
  readonly path: string
  readonly fingerprint: string
  readonly valid: boolean
  readonly problems: ReadonlyArray<ConfigProblem>
  readonly tokenStored: boolean
  readonly service: { readonly baseUrl: unknown; readonly companyKey?: unknown } | null
  readonly mqtt: { readonly url: string } | null
  readonly status: { readonly listen: string } | null
  readonly places: ReadonlyArray<unknown>
  readonly buttons: ReadonlyArray<unknown>
  readonly reload: SetupEnvironment["reload"]["_tag"]
  /** The zone the page shows times in: the machine's, which the daemon's status page and the layout report use too. */
  readonly venueClock: VenueClock
}

const section = (raw: Plain, key: string): Plain | undefined => (isPlain(raw[key]) ? raw[key] : undefined)

const listIn = (raw: Plain, key: string): ReadonlyArray<unknown> => {
  const list = raw[key]
  return Array.isArray(list) ? list : []
}

/** The file's content as plain data, as far as it parses (a YAML syntax error: nothing). */
const rawContent = (text: string): Plain => {
  const doc = parseDocument(text, { uniqueKeys: false })
  if (doc.errors.length > 0) return {}
  try {
    const value = doc.toJS({ maxAliasCount: 100 }) as unknown
    return isPlain(value) ? value : {}
  } catch {
    return {}
  }
}

// The token and the broker password are never sent: only the settings the page edits.
const described = (raw: Plain): Pick<ConfigView, "service" | "mqtt" | "status" | "places" | "buttons"> => {
  const service = section(raw, "service")
  const mqtt = section(raw, "mqtt")
  const listen = section(raw, "status")?.["listen"]
  return {
    service: service === undefined
      ? null
      : { baseUrl: service["baseUrl"] ?? null, ...(service["companyKey"] === undefined ? {} : { companyKey: service["companyKey"] }) },
    mqtt: typeof mqtt?.["url"] === "string" ? { url: redactedUrl(mqtt["url"]) } : null,
    status: { listen: typeof listen === "string" ? listen : "127.0.0.1:8370" },
    places: listIn(raw, "places"),
    buttons: listIn(raw, "buttons")
  }
}

/** The config as the page starts from: a file that does not exist is the skeleton, fingerprint "absent". */
export const configView = Effect.fn("configView")(function*(environment: SetupEnvironment) {
  const file = yield* Effect.promise(() => readConfigFile(environment.configPath))
  const problems = yield* configProblems(file.text, environment.configPath, yield* tokenValues(environment))
  return {
    path: environment.configPath,
    fingerprint: file.fingerprint,
    valid: file.exists && problems.length === 0,
    problems: file.exists ? problems : [{ path: "", message: `${environment.configPath} does not exist yet: the first save writes it` }],
    tokenStored: yield* Effect.promise(() => tokenIsStored(environment)),
    ...described(rawContent(file.text)),
    reload: environment.reload._tag,
    venueClock: venueClockAt(Date.now())
  } satisfies ConfigView
})
