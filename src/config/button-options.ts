import { Schema, SchemaAST } from "effect"
import type { ButtonSourceDefinition } from "../../adapters/button-source.ts"
import { issueProblems, type IssueProblem } from "./problems.ts"
import type { Config } from "./schema.ts"

/** The button source registry (adapters/button-registry.ts) as the config needs it. */
export type ButtonSourceCatalog = Readonly<Record<string, ButtonSourceDefinition<any>>>

const strict = { errors: "all", onExcessProperty: "error", reportInput: true } as const

// Schema.Struct({}) accepts any mapping, so a type without options would silently take misspelt ones.
const takesNoOptions = (definition: ButtonSourceDefinition<any>) => {
  const ast = definition.optionsSchema.ast
  return SchemaAST.isObjects(ast) && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0
}

/**
 * Checks what only the source types know: each button source's `options`, by
 * the type's own schema. Returns the config with `options` decoded (defaults
 * filled in).
 */
export const checkButtonSources = (config: Config, sources: ButtonSourceCatalog): {
  readonly config: Config
  readonly problems: ReadonlyArray<IssueProblem>
} => {
  if (config.buttons === undefined) return { config, problems: [] }
  const problems: Array<IssueProblem> = []
  const buttons = config.buttons.map((button, index) => {
    const at = ["buttons", index] as const
    const definition = sources[button.type]
    if (definition === undefined) {
      problems.push({ path: [...at, "type"], message: `button source type "${button.type}" is not available in this build` })
      return button
    }
    if (takesNoOptions(definition)) {
      problems.push(...Object.keys(button.options).map((key) => ({
        path: [...at, "options", key],
        atKey: true,
        message: `unknown key "${key}": type ${button.type} takes no options`
      })))
      return button
    }
    const decoded = Schema.decodeUnknownResult(definition.optionsSchema)(button.options, strict)
    if (decoded._tag === "Success") return { ...button, options: decoded.success as Record<string, unknown> }
    problems.push(...issueProblems(decoded.failure.issue, [...at, "options"]))
    return button
  })
  return { config: { ...config, buttons }, problems }
}
