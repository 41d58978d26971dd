import { copyFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { Effect } from "effect"
import { parseDocument } from "yaml"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { configRoutes } from "../../src/setup/config/config-routes.ts"
import { type DaemonReload, setupEnvironment, type SetupEnvironment } from "../../src/setup/setup-environment.ts"
import type { SetupReply, SetupRoute } from "../../src/setup/setup-route.ts"
import type { Resources } from "../support/resources.ts"

// The saves here go to their temp directory's config-changes.log only, not the test machine's syslog (change-journal.ts).
process.env["SCOREBRIDGE_SETUP_SYSLOG"] = "off"

/** The config routes on a config in a temp dir, called as the server calls them (the HTTP layer is the server's own test). */
export interface ConfigBench {
  readonly dir: string
  readonly environment: SetupEnvironment
  readonly call: (method: SetupRoute["method"], path: string, body?: unknown, session?: string) => Promise<SetupReply>
  /** Every reply so far, as JSON text: for "the token is nowhere". */
  readonly replies: Array<string>
}

export const configBench = (res: Resources, example?: string, reload: DaemonReload = { _tag: "none" }): ConfigBench => {
  const dir = tempDir("setup-config", res)
  const path = join(dir, "config.yaml")
  if (example !== undefined) copyFileSync(join(import.meta.dirname, "../../config", example), path)
  return configBenchAt(path, reload)
}

/** The config routes on the config at `path` (which may not exist yet). */
export const configBenchAt = (path: string, reload: DaemonReload = { _tag: "none" }): ConfigBench => {
  const environment = setupEnvironment(path, reload)
  const routes = configRoutes(environment)
  const replies: Array<string> = []
  const call = async (method: SetupRoute["method"], route: string, body?: unknown, session = "browser-1") => {
    const found = routes.find((r) => r.method === method && r.path === route)
    if (found === undefined) throw new Error(`no route ${method} ${route}`)
    const reply = await Effect.runPromise(found.handle({ method, path: route, params: {}, query: new URLSearchParams(), body, session }))
    replies.push(JSON.stringify(reply))
    return reply
  }
  return { dir: dirname(path), environment, call, replies }
}

/** The config's places as plain data, as the page has them from GET /api/config. */
export const placesOf = (text: string): Array<Record<string, any>> => parseDocument(text).toJS().places

export const json = (reply: SetupReply): any => reply.json
