import { hostname } from "node:os"
import { Effect } from "effect"
import { listenAddresses } from "../listen-addresses.ts"
import { setupEnvironment } from "../setup-environment.ts"
import { setupRoutes } from "../setup-routes.ts"
import { serveSetup } from "../setup-server.ts"
import { announceFileWriter, announceFilePath } from "./announce-file.ts"
import { installedConfig } from "./setup-unit.ts"
import type { UnitOptions } from "./unit-options.ts"

/**
 * `scorebridge setup --serve-unit`: the page as scorebridge-setup.service serves it, as user
 * scorebridge-setup. The config is the installed one; a save reloads the bridge through
 * scorebridge-reload.path (this process has no right to); the page's address and every code
 * go to the announce file for `sudo scorebridge setup` to print, and to the journal.
 */
export const serveAsUnit = (options: UnitOptions) =>
  Effect.gen(function*() {
    const environment = setupEnvironment(installedConfig, { _tag: "path-unit" }, options.lan)
    const announce = yield* announceFileWriter(announceFilePath())
    const routes = yield* setupRoutes(environment)
    yield* serveSetup({ port: options.port, addresses: listenAddresses(options.lan), hostname: hostname(), routes, announce })
  }).pipe(Effect.scoped)
