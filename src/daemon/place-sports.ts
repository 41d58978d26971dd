import { Effect, Schedule, Schema } from "effect"
import type { Config } from "../config/schema.ts"
import { ServiceClient } from "../service/client.ts"

export class SportUnknown extends Schema.TaggedError<SportUnknown>()("SportUnknown", {
  place: Schema.String,
  message: Schema.String
}) {}

/**
 * The sport of each place with a scoreboard: from config, else from the
 * service's place list (one request, made only when some place needs it).
 */
export const resolvePlaceSports = Effect.fnUntraced(function*(config: Config) {
  const sports = new Map<string, string>()
  const missing = config.places.filter((p) => p.scoreboard !== undefined && p.sport === undefined)
  for (const place of config.places) if (place.sport !== undefined) sports.set(place.key, place.sport)
  if (missing.length === 0) return sports
  const companyKey = config.service.companyKey
  if (companyKey === undefined) {
    return yield* new SportUnknown({
      place: missing[0]!.key,
      message: `place ${missing[0]!.key} has no sport: set places[].sport, or service.companyKey so the bridge can ask the service`
    })
  }
  const client = yield* ServiceClient
  const known = yield* client.places(companyKey).pipe(
    Effect.retry({ times: 5, schedule: Schedule.spaced("2 seconds") }),
    Effect.mapError((e) => new SportUnknown({ place: missing[0]!.key, message: `cannot read the places of ${companyKey}: ${e.message}` }))
  )
  for (const place of missing) {
    const found = known.find((k) => k.key === place.key)
    if (found?.sport === undefined) {
      return yield* new SportUnknown({
        place: place.key,
        message: `place ${place.key} is not among the places of organization ${companyKey}, or has no sport: check the key, or set places[].sport`
      })
    }
    sports.set(place.key, found.sport)
  }
  return sports
})
