import { mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { type DaemonConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { setupEnvironment, type SetupEnvironment } from "../../src/setup/setup-environment.ts"
import type { SetupReply, SetupRoute } from "../../src/setup/setup-route.ts"
import { type StepOptions, stepRoutes } from "../../src/setup/steps/step-routes.ts"
import { matches } from "./route-calls.ts"

/**
 * The step routes as the setup server holds them, called through their handles (the HTTP and
 * security layer is the server's, tested on its own): a scope the test closes, and `call`, which
 * matches a path to its route as the server does.
 */
export interface Steps {
  readonly environment: SetupEnvironment
  readonly call: (method: SetupRoute["method"], path: string, options?: { readonly body?: unknown; readonly session?: string }) => Promise<SetupReply>
  readonly close: () => Promise<void>
}

/** `lan`: as `scorebridge setup --lan` (a listening step may bind the machine's network addresses). */
export const startSteps = async (configDirectory: string, options: StepOptions = {}, lan = false): Promise<Steps> => {
  const environment = setupEnvironment(join(configDirectory, "config.yaml"), { _tag: "none" }, lan)
  const scope = await Effect.runPromise(Scope.make())
  const routes = await Effect.runPromise(Scope.provide(scope)(stepRoutes(environment, options)))
  const call: Steps["call"] = (method, path, { body, session = "browser-1" } = {}) => {
    const [bare, query = ""] = path.split("?") as [string, string?]
    for (const route of routes) {
      const params = route.method === method ? matches(route.path, bare) : undefined
      if (params !== undefined) {
        return Effect.runPromise(route.handle({ method, path: bare, params, query: new URLSearchParams(query), body, session }))
      }
    }
    throw new Error(`no step route for ${method} ${path}`)
  }
  return { environment, call, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** The organization's token stored as scorebridge-set-token stores it, and the config naming it. */
export const writeSetupConfig = (configDirectory: string, config: DaemonConfig, token?: string): string => {
  if (token !== undefined) {
    mkdirSync(join(configDirectory, "credentials"), { recursive: true, mode: 0o700 })
    writeFileSync(join(configDirectory, "credentials", "token"), `${token}\n`, { mode: 0o600 })
  }
  return writeConfig(join(configDirectory, "config.yaml"), config)
}

/** A /dev/serial/by-id of the test's own: a stable name linked to a pty, as udev links an adapter. */
export const byIdLink = (directory: string, name: string, device: string): string => {
  mkdirSync(directory, { recursive: true })
  const path = join(directory, name)
  symlinkSync(device, path)
  return path
}

/** Points the steps at `directory` for by-id names while a file's tests run; gives back what was there. */
export const useByIdDirectory = (directory: string): (() => void) => {
  const before = process.env["SCOREBRIDGE_SERIAL_BY_ID"]
  process.env["SCOREBRIDGE_SERIAL_BY_ID"] = directory
  return () => {
    if (before === undefined) delete process.env["SCOREBRIDGE_SERIAL_BY_ID"]
    else process.env["SCOREBRIDGE_SERIAL_BY_ID"] = before
  }
}
