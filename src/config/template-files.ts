import { Effect } from "effect"
import { readTemplateFile } from "./overlay-template.ts"
import { checkTemplate } from "./template-rules.ts"
import type { ConfigProblem, LoadedConfig } from "./load.ts"

/**
 * The template rules (renderWidth/renderHeight meta entry, no script, a value
 * for every [placeholder]) checked on each team overlay's local `templateFile`,
 * so a broken template is found at commissioning, not when a highlight fails.
 */
export const templateFileProblems = Effect.fn("templateFileProblems")(function*({ config, locate }: LoadedConfig) {
  const problems: Array<ConfigProblem> = []
  for (const [index, place] of config.places.entries()) {
    for (const team of ["home", "away"] as const) {
      const overlay = place.teams?.[team]?.overlay
      if (overlay?.templateFile === undefined) continue
      const path = ["places", String(index), "teams", team, "overlay", "templateFile"]
      const where = { path: `places[${index}].teams.${team}.overlay.templateFile`, ...locate(path) }
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
