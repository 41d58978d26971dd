import { Effect } from "effect"
import { Command } from "effect/cli"
import { checkConfig } from "../config/check.ts"
import { configFlag, exitConfigError } from "./config-flag.ts"
import { printError, printLine } from "./printable.ts"

export const checkCommand = Command.make(
  "check",
  { config: configFlag },
  Effect.fn(function*({ config }) {
    const result = yield* checkConfig(config)
    if (result.ok) return yield* printLine(result.summary)
    yield* printError(result.report)
    process.exitCode = exitConfigError
  })
).pipe(Command.withDescription(`Validate a config file and its secrets; exit 0 when valid, ${exitConfigError} when not`))
