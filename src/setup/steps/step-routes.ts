import { Effect, type Scope } from "effect"
import type { SetupRoute } from "../setup-route.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { checksRoute } from "./checks.ts"
import { consolesRoute } from "./consoles.ts"
import { daemonStatusRoute } from "./daemon-status.ts"
import { listenRoutes } from "./listen-routes.ts"
import { defaultListenIdleMs, makeListeningSessions } from "./listening-sessions.ts"
import { servicePlacesRoute } from "./service-places.ts"
import { serialPortsRoute } from "./serial-ports.ts"

export interface StepOptions {
  /** A listening session nobody asked about for this long is closed (default 2 min; tests shorten it). */
  readonly listenIdleMs?: number
}

/**
 * The steps of one court on the setup page: the checks, the service's places, the consoles, the
 * serial adapters, listening to the console (and finding its layout), the daemon's view after a
 * save. Scoped: the listening sessions close with the server.
 */
export const stepRoutes = (environment: SetupEnvironment, options: StepOptions = {}): Effect.Effect<ReadonlyArray<SetupRoute>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const sessions = yield* makeListeningSessions(options.listenIdleMs ?? defaultListenIdleMs)
    return [
      checksRoute(environment),
      servicePlacesRoute(environment),
      consolesRoute,
      serialPortsRoute(environment),
      ...listenRoutes(environment, sessions),
      daemonStatusRoute(environment)
    ]
  })
