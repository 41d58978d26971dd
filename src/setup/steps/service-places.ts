import { Effect, Result } from "effect"
import { adviceFor } from "../../commissioning/service-checks.ts"
import { ServiceClient } from "../../service/client.ts"
import { ok, problem, type SetupRoute } from "../setup-route.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { tokenHeldBack } from "../config/token-store.ts"
import { readSetupSecret } from "../setup-token.ts"
import { currentConfig } from "./current-config.ts"

/** A place as the page offers it: its key for the config, its name to pick it by, the sport it comes with (null when the service has none). */
export interface ServicePlace {
  readonly key: string
  readonly name: string
  readonly sport: string | null
}

/** `GET /api/service-places`'s answer (a 409 or 502 is `{ error }`). */
export interface ServicePlacesAnswer { readonly places: ReadonlyArray<ServicePlace> }

/** Something the technician must do before the list can be read: 409; the service refusing or unreachable: 502. */
const notYet = (error: string) => problem(409, error)

/**
 * The organization's places from the service, one request, with the config's companyKey and the
 * stored token. What is missing, or what the service said, comes back as `{ error }` in doctor's words.
 */
export const servicePlacesRoute = (environment: SetupEnvironment): SetupRoute => ({
  method: "GET",
  path: "/api/service-places",
  handle: () =>
    Effect.gen(function*() {
      const loaded = yield* currentConfig(environment)
      if (Result.isFailure(loaded)) return notYet(`the config does not load, so the service is not known: ${loaded.failure}`)
      const { service } = loaded.success.config
      if (service.companyKey === undefined) {
        return notYet("the organization key (service.companyKey) is not set: enter it with the service's address, then list the places")
      }
      const heldBack = yield* Effect.promise(() => tokenHeldBack(environment, service))
      if (heldBack !== undefined) return notYet(`${heldBack}: enter the organization's API token again for the new address`)
      const token = yield* Effect.result(readSetupSecret(environment, service.token, "service.token"))
      if (Result.isFailure(token)) return notYet(`no token to ask the service with (${token.failure.reason}): enter the organization's API token first`)
      const places = yield* Effect.result(
        Effect.gen(function*() {
          const client = yield* ServiceClient
          return yield* client.places(service.companyKey!)
        }).pipe(
          Effect.provide(ServiceClient.layer({ baseUrl: service.baseUrl, token: token.success, timeoutMs: service.timeoutMs }))
        )
      )
      if (Result.isSuccess(places)) {
        return ok({ places: places.success.map((p): ServicePlace => ({ key: p.key, name: p.name ?? p.key, sport: p.sport ?? null })) } satisfies ServicePlacesAnswer)
      }
      const failure = places.failure
      if (failure._tag === "InvalidBaseUrl") return notYet(`${failure.message}: correct the service's address`)
      const advice = failure._tag === "Unauthorized" || failure._tag === "Forbidden"
        ? `check the organization key ("${service.companyKey}") and the token: they must be the same organization's`
        : adviceFor(failure, service.baseUrl)
      return problem(502, `${failure.message}: ${advice}`)
    })
})
