import { Effect, type Scope } from "effect"
import { buttonRoutes } from "./buttons/button-routes.ts"
import { configRoutes } from "./config/config-routes.ts"
import { pageRoutes } from "./page/page-routes.ts"
import type { SetupEnvironment } from "./setup-environment.ts"
import type { SetupRoute } from "./setup-route.ts"
import { stepRoutes } from "./steps/step-routes.ts"

/**
 * Every route of the setup page, in the server's scope: factories that hold listening sessions or
 * ports (the steps, the buttons) close them when the server stops.
 */
export const setupRoutes = (environment: SetupEnvironment): Effect.Effect<ReadonlyArray<SetupRoute>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const steps = yield* stepRoutes(environment)
    const buttons = yield* buttonRoutes(environment)
    return [...pageRoutes(), ...configRoutes(environment), ...steps, ...buttons]
  })
