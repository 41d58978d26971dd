import { Schema } from "effect"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import type { Config } from "./schema.ts"
import { issueProblems, type IssueProblem } from "./problems.ts"

/** The protocol registry (adapters/registry.ts) as the config needs it. */
export type ProtocolCatalog = Readonly<Record<string, ProtocolDefinition<any>>>

const strict = { errors: "all", onExcessProperty: "error", reportInput: true } as const

/**
 * Checks what only the protocols know: each scoreboard's `options` (by the
 * protocol's own schema) and whether the protocol has a layout for the
 * place's sport. Returns the config with `options` decoded.
 */
export const checkProtocols = (config: Config, protocols: ProtocolCatalog): {
  readonly config: Config
  readonly problems: ReadonlyArray<IssueProblem>
} => {
  const problems: Array<IssueProblem> = []
  const places = config.places.map((place, index) => {
    const board = place.scoreboard
    if (board === undefined) return place
    const at = ["places", index, "scoreboard"] as const
    const definition = protocols[board.protocol]
    if (definition === undefined) {
      problems.push({ path: [...at, "protocol"], message: `protocol "${board.protocol}" is not available in this build` })
      return place
    }
    if (place.sport !== undefined && !definition.sports.includes(place.sport)) {
      problems.push({
        path: ["places", index, "sport"],
        message: `protocol ${board.protocol} has no field layout for "${place.sport}" (it knows: ${definition.sports.join(", ")})`
      })
    }
    const decoded = Schema.decodeUnknownResult(definition.optionsSchema)(board.options, strict)
    if (decoded._tag === "Success") {
      const misfits = place.sport === undefined ? [] : definition.sportProblems?.(decoded.success, place.sport) ?? []
      problems.push(...misfits.map(({ path, issue }) => ({ path: [...at, "options", ...path], message: issue })))
      return { ...place, scoreboard: { ...board, options: decoded.success } }
    }
    problems.push(...issueProblems(decoded.failure.issue, [...at, "options"]))
    return place
  })
  return { config: { ...config, places }, problems }
}
