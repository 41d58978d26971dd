import { Effect } from "effect"
import { readTemplateFile } from "./overlay-template.ts"
import { checkTemplate } from "./template-rules.ts"
import type { ConfigProblem, LoadedConfig } from "./load.ts"

/** Each overlay of a place with its key path: the teams' and the place's own (clicks about no team). */
const overlaysOf = (place: LoadedConfig["config"]["places"][number]) => [
  ...(["home", "away"] as const).map((team) => ({ overlay: place.teams?.[team]?.overlay, at: ["teams", team, "overlay"] })),
  { overlay: place.clicks.overlay, at: ["clicks", "overlay"] }
]

/**
 * The template rules (renderWidth/renderHeight meta entry, no script, a value
 * for every [placeholder]) checked on each overlay's local `templateFile`,
 * so a broken template is found at commissioning, not when a highlight fails.
 */
export const templateFileProblems = Effect.fn("templateFileProblems")(function*({ config, locate }: LoadedConfig) {
  const problems: Array<ConfigProblem> = []
  for (const [index, place] of config.places.entries()) {
    for (const { overlay, at } of overlaysOf(place)) {
      if (overlay?.templateFile === undefined) continue
      const path = ["places", index, ...at, "templateFile"]
      const where = { path: `places[${index}].${at.join(".")}.templateFile`, ...locate(path) }
      const html = yield* readTemplateFile(overlay.templateFile).pipe(Effect.result)
      if (html._tag === "Failure") {
        problems.push({ ...where, message: html.failure.message })
        continue
      }
      for (const problem of checkTemplate(html.success, overlay.values ?? {})) {
        problems.push({ ...where, message: `${overlay.templateFile}: ${problem}` })
      }
    }
  }
  return problems
})
