import { Effect, type Scope } from "effect"
import { pageRoutes } from "./page/page-routes.ts"
import type { SetupEnvironment } from "./setup-environment.ts"
import type { SetupRoute } from "./setup-route.ts"

/**
 * Every route of the setup page, in the server's scope: factories that hold listening sessions or
 * ports (the steps, the buttons) close them when the server stops.
 */
export const setupRoutes = (_environment: SetupEnvironment): Effect.Effect<ReadonlyArray<SetupRoute>, never, Scope.Scope> =>
  Effect.succeed([...pageRoutes()])
