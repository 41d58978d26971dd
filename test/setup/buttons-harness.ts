import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { stringify } from "yaml"
import { eventually } from "../../scripts/support/eventually.ts"
import { buttonRoutes } from "../../src/setup/buttons/button-routes.ts"
import { setupEnvironment } from "../../src/setup/setup-environment.ts"
import type { SetupReply, SetupRoute } from "../../src/setup/setup-route.ts"
import { matches } from "./route-calls.ts"

/**
 * The button routes as the setup server holds them, in a scope of the test's: requests go to the
 * route handles directly (the HTTP and security layer is the server's, tested with it).
 */
export interface ButtonApi {
  readonly call: (method: SetupRoute["method"], path: string, body?: unknown, session?: string) => Promise<SetupReply>
  readonly close: () => Promise<void>
  readonly configPath: string
}

/** `config` written as config.yaml in `dir` (any shape: a court half set up is what the page meets). */
export const startButtonApi = async (dir: string, config: unknown): Promise<ButtonApi> => {
  const configPath = join(dir, "config.yaml")
  writeFileSync(configPath, stringify(config))
  const scope = Effect.runSync(Scope.make())
  const routes = await Effect.runPromise(Scope.provide(buttonRoutes(setupEnvironment(configPath, { _tag: "none" })), scope))
  return {
    configPath,
    call: (method, path, body, session = "browser-1") => {
      for (const route of routes) {
        const params = route.method === method ? matches(route.path, path) : undefined
        if (params !== undefined) {
          return Effect.runPromise(route.handle({ method, path, params, query: new URLSearchParams(), body, session }))
        }
      }
      throw new Error(`no button route for ${method} ${path}`)
    },
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** The capture's answer once it is not `waiting`, polling as the page does. */
export const pollCapture = (
  api: ButtonApi,
  id: string,
  what: string,
  check: (reply: SetupReply) => boolean,
  session?: string
): Promise<SetupReply> =>
  eventually(what, async () => {
    const reply = await api.call("GET", `/api/buttons/listen/${id}`, undefined, session)
    return check(reply) ? reply : undefined
  }, { timeoutMs: 10_000 })

export const pressedOf = (reply: SetupReply): unknown => (reply.json as { pressed?: unknown }).pressed

export const linkState = (reply: SetupReply, link: string): string | undefined =>
  (reply.json as { links?: ReadonlyArray<{ link: string; state: string }> }).links?.find((l) => l.link === link)?.state
