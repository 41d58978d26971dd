import { readFileSync } from "node:fs"
import { Result, Schema } from "effect"
import { parse as parseYaml } from "yaml"
import { fieldErrors } from "./failure.ts"
import { sportCodes } from "./sports.ts"

/** Who exists in the simulated service: organizations, their tokens and places. */
export interface SimulatorSeed {
  organizations: Array<{
    key: string
    name: string
    tokens: string[]
    places: Array<{
      key: string
      name: string
      sport: string
      timeZoneID?: string
      location?: { name: string; geoLoc: { lat: number; lng: number } }
      /** Device ids of the place's cameras, in rank order; default `defaultCameras`. All start switched on. */
      cameras?: string[]
    }>
  }>
}

/** A place without `cameras` in its seed films with these two, so a moment gets two clips (one per angle). */
export const defaultCameras: ReadonlyArray<string> = ["camera-1", "camera-2"]

export const demoSeed: SimulatorSeed = {
  organizations: [
    {
      key: "demo-org",
      name: "Demo Organization",
      tokens: ["demo-token"],
      places: [
        { key: "court-1", name: "Court 1", sport: "tennis" },
        { key: "court-2", name: "Court 2", sport: "volleyball" }
      ]
    }
  ]
}

const NonEmpty = Schema.NonEmptyString

const PlaceSeed = Schema.Struct({
  key: NonEmpty,
  name: NonEmpty,
  sport: Schema.Literals(sportCodes),
  timeZoneID: Schema.optional(Schema.String),
  location: Schema.optional(Schema.Struct({
    name: Schema.String,
    geoLoc: Schema.Struct({ lat: Schema.Finite, lng: Schema.Finite })
  })),
  cameras: Schema.optional(Schema.Array(NonEmpty))
})

const SeedSchema = Schema.Struct({
  organizations: Schema.Array(Schema.Struct({
    key: NonEmpty,
    name: NonEmpty,
    tokens: Schema.Array(NonEmpty),
    places: Schema.Array(PlaceSeed)
  }))
})

/** Token and place keys address one organization each, so a duplicate would make lookups ambiguous; a camera is one device of its place. */
const firstDuplicate = (seed: SimulatorSeed): string | undefined => {
  const seen = new Set<string>()
  for (const [i, org] of seed.organizations.entries()) {
    for (const [j, token] of org.tokens.entries()) {
      if (seen.has(`t:${token}`)) return `organizations[${i}].tokens[${j}]: duplicate token`
      seen.add(`t:${token}`)
    }
    for (const [j, place] of org.places.entries()) {
      if (seen.has(`p:${place.key}`)) return `organizations[${i}].places[${j}].key: duplicate place key "${place.key}"`
      seen.add(`p:${place.key}`)
      const cameras = place.cameras ?? []
      const twice = cameras.findIndex((c, k) => cameras.indexOf(c) !== k)
      if (twice !== -1) return `organizations[${i}].places[${j}].cameras[${twice}]: duplicate camera "${cameras[twice]}"`
    }
  }
  return undefined
}

/** Reads a seed from a JSON or YAML file; throws an Error naming the file and the offending field. */
export function loadSeed(path: string): SimulatorSeed {
  let raw: unknown
  try {
    raw = parseYaml(readFileSync(path, "utf8")) // YAML is a superset of JSON, so one parser serves both
  } catch (cause) {
    throw new Error(`simulator seed ${path}: cannot read: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
  const decoded = fieldErrors(SeedSchema, raw)
  if (Result.isFailure(decoded)) {
    throw new Error(`simulator seed ${path}: ${decoded.failure.map((e) => `${e.field}: ${e.message}`).join("; ")}`)
  }
  const seed = decoded.success as SimulatorSeed
  const duplicate = firstDuplicate(seed)
  if (duplicate !== undefined) throw new Error(`simulator seed ${path}: ${duplicate}`)
  return seed
}
