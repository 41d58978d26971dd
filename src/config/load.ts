import { readFile } from "node:fs/promises"
import { Effect, Schema } from "effect"
import { buttonSources } from "../../adapters/button-registry.ts"
import { protocols as registry } from "../../adapters/registry.ts"
import { checkButtonSources, type ButtonSourceCatalog } from "./button-options.ts"
import { checkProtocols, type ProtocolCatalog } from "./protocol-options.ts"
import { formatPath, issueProblems, type IssueProblem } from "./problems.ts"
import { Config } from "./schema.ts"
import { parseYaml, type YamlSource } from "./yaml-source.ts"

export const ConfigProblem = Schema.Struct({
  /** Field path such as `places[1].scoreboard.serial.baudRate`; "" for the file as a whole. */
  path: Schema.String,
  line: Schema.optionalKey(Schema.Int),
  column: Schema.optionalKey(Schema.Int),
  message: Schema.String
})
export type ConfigProblem = typeof ConfigProblem.Type

/** One line per problem: `config.yaml:12:7 places[0].scoreboard.serial.baudRate: expected one of …, got "fast"`. */
const formatProblems = (file: string, problems: ReadonlyArray<ConfigProblem>): string =>
  problems.map((problem) => {
    const where = problem.line === undefined ? file : `${file}:${problem.line}:${problem.column ?? 1}`
    return `${where} ${problem.path === "" ? "" : `${problem.path}: `}${problem.message}`
  }).join("\n")

export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  file: Schema.String,
  problems: Schema.Array(ConfigProblem)
}) {
  override get message(): string {
    return formatProblems(this.file, this.problems)
  }
}

/** A decoded config and the means to point back into the file it came from. */
export interface LoadedConfig {
  readonly config: Config
  readonly locate: YamlSource["locate"]
}

const strict = { errors: "all", onExcessProperty: "error", reportInput: true } as const

const located = (source: YamlSource, problems: ReadonlyArray<IssueProblem>): Array<ConfigProblem> =>
  problems
    .map((problem) => ({ problem, position: source.locate(problem.path, problem.atKey) }))
    .sort((a, b) => (a.position?.line ?? 0) - (b.position?.line ?? 0) || (a.position?.column ?? 0) - (b.position?.column ?? 0))
    .map(({ position, problem }) => ({ path: formatPath(problem.path), ...position, message: problem.message }))

const readFailure = (cause: unknown): string => {
  switch ((cause as { code?: unknown } | null)?.code) {
    case "ENOENT":
      return "file not found"
    case "EACCES":
    case "EPERM":
      return "cannot be read: permission denied (the service user needs read access)"
    case "EISDIR":
      return "is a directory, not a config file"
    default:
      return `cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`
  }
}

const fail = (file: string, problems: ReadonlyArray<ConfigProblem>) => Effect.fail(new ConfigError({ file, problems }))

/** Decodes config text; `file` only names it in problems. */
export const parseConfig = Effect.fn("parseConfig")(function*(
  text: string,
  file: string,
  protocols: ProtocolCatalog,
  sources: ButtonSourceCatalog = buttonSources
): Effect.fn.Return<LoadedConfig, ConfigError> {
  const parsed = parseYaml(text)
  if (parsed._tag === "invalid") return yield* fail(file, parsed.problems.map((problem) => ({ path: "", ...problem })))
  const { source } = parsed
  if (source.value === null || source.value === undefined) {
    return yield* fail(file, [{ path: "", message: "the file is empty: it needs at least service: and places:" }])
  }
  const decoded = yield* Schema.decodeUnknownEffect(Config)(source.value, strict).pipe(
    Effect.catchTag("SchemaError", (error) => fail(file, located(source, issueProblems(error.issue))))
  )
  const boards = checkProtocols(decoded, protocols)
  const buttons = checkButtonSources(boards.config, sources)
  const problems = [...boards.problems, ...buttons.problems]
  if (problems.length > 0) return yield* fail(file, located(source, problems))
  return { config: buttons.config, locate: source.locate }
})

/** Reads, decodes and validates a config file: everything short of resolving secrets. */
export const readConfig = Effect.fn("readConfig")(function*(
  path: string,
  protocols: ProtocolCatalog = registry,
  sources: ButtonSourceCatalog = buttonSources
): Effect.fn.Return<LoadedConfig, ConfigError> {
  const text = yield* Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (cause) => new ConfigError({ file: path, problems: [{ path: "", message: readFailure(cause) }] })
  })
  return yield* parseConfig(text, path, protocols, sources)
})

export const loadConfig = (
  path: string,
  protocols: ProtocolCatalog = registry,
  sources: ButtonSourceCatalog = buttonSources
): Effect.Effect<Config, ConfigError> =>
  readConfig(path, protocols, sources).pipe(Effect.map((loaded) => loaded.config))

