import { Effect, Option, Redacted, Result } from "effect"
import { protocols } from "../../adapters/registry.ts"
import type { Config, Place } from "../config/schema.ts"
import { ServiceClient } from "../service/client.ts"
import type { ServiceError } from "../service/errors.ts"
import type { Place as ServicePlace } from "../service/schemas.ts"
import { type CheckOutcome, fail, ok, skip } from "./check-outcome.ts"
import { clockOutcome } from "./clock-skew.ts"

/** What to do about a service call that failed, in doctor's words (the setup page's place list says the same). */
export const adviceFor = (error: ServiceError, baseUrl: string): string => {
  switch (error._tag) {
    case "Unauthorized":
    case "Forbidden":
      return "service.token must be this organization's current API token: get a new one from the service and update the secret the config points to"
    case "ConnectionFailed":
    case "RequestTimeout":
      return `the service cannot be reached from this machine: check the network, DNS, firewall and service.baseUrl (try: curl -sI ${baseUrl})`
    case "RateLimited":
      return "another program is using the same token (the running daemon?): wait a minute and run doctor again"
    default:
      return "the service answered unexpectedly: run doctor again in a few minutes; if it persists, send this line to support"
  }
}

const placeOutcome = (place: Place, known: ReadonlyArray<ServicePlace>): CheckOutcome => {
  const found = known.find((p) => p.key === place.key)
  const what = `place ${place.key}`
  if (found === undefined) {
    const keys = known.map((p) => p.key).join(", ") || "none"
    return fail(`${what}: not among the organization's places (${keys})`, `set places[].key to one of the keys listed, exactly as the service spells it`)
  }
  const sport = place.sport ?? found.sport
  if (place.sport !== undefined && found.sport !== undefined && found.sport !== place.sport) {
    return fail(`${what}: configured as ${place.sport}, but the service has it as ${found.sport}`, `set sport: ${found.sport} for this place, or have the place's sport changed in the service`)
  }
  const board = place.scoreboard
  const decoder = board === undefined ? undefined : protocols[board.protocol]
  if (board !== undefined && decoder !== undefined && sport !== undefined && !decoder.sports.includes(sport)) {
    return fail(`${what}: the ${board.protocol} decoder cannot read ${sport} (it reads ${decoder.sports.join(", ")})`, "check the place's sport and the controller's protocol")
  }
  const name = found.name === undefined ? "" : `"${found.name}", `
  return ok(`${what}: exists (${name}${sport ?? "no sport given"})`)
}

/**
 * Token, places and clock against the service: one request for the token and
 * one for all places, `gapMs` apart so doctor never eats the daemon's rate budget.
 */
export const serviceChecks = Effect.fn("serviceChecks")(function*(config: Config, token: Redacted.Redacted<string>, gapMs: number) {
  const { baseUrl, companyKey, timeoutMs } = config.service
  const outcomes: Array<CheckOutcome> = []
  const client = yield* ServiceClient
  const sports = yield* Effect.result(client.sports)
  if (Result.isFailure(sports)) outcomes.push(fail(`token: ${sports.failure.message}`, adviceFor(sports.failure, baseUrl)))
  else outcomes.push(ok(`token: accepted by ${baseUrl} (GET /public/sports)`))

  const clock = yield* client.lastServerDate
  outcomes.push(Option.isSome(clock) ? clockOutcome(clock.value) : skip("clock: not compared, the service's answer had no Date header"))

  if (companyKey === undefined) {
    outcomes.push(skip("places: not looked up: service.companyKey is not set (add your organization key to check that each place exists)"))
  } else if (Result.isFailure(sports) && ["Unauthorized", "Forbidden", "ConnectionFailed", "RequestTimeout"].includes(sports.failure._tag)) {
    outcomes.push(skip("places: not looked up, the service could not be used (see the token line)"))
  } else {
    yield* Effect.sleep(gapMs)
    const places = yield* Effect.result(client.places(companyKey))
    if (Result.isSuccess(places)) outcomes.push(...config.places.map((place) => placeOutcome(place, places.success)))
    else {
      const advice = places.failure._tag === "Unauthorized" || places.failure._tag === "Forbidden"
        ? `check service.companyKey ("${companyKey}"): the token accepted above belongs to another organization`
        : adviceFor(places.failure, baseUrl)
      outcomes.push(fail(`places: ${places.failure.message}`, advice))
    }
  }
  return outcomes
}, (effect, config: Config, token: Redacted.Redacted<string>) =>
  effect.pipe(
    Effect.provide(ServiceClient.layer({ baseUrl: config.service.baseUrl, token, timeoutMs: config.service.timeoutMs })),
    Effect.catchTag("InvalidBaseUrl", (error) => Effect.succeed([fail(`service: ${error.message}`, "fix service.baseUrl")]))
  ))
