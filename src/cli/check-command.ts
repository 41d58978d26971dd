import { Console, Effect } from "effect"
import { Command } from "effect/cli"
import { checkConfig } from "../config/check.ts"
import { configFlag, exitConfigError } from "./config-flag.ts"

export const checkCommand = Command.make(
  "check",
  { config: configFlag },
  Effect.fn(function*({ config }) {
    const result = yield* checkConfig(config)
    if (result.ok) return yield* Console.log(result.summary)
    yield* Console.error(result.report)
    process.exitCode = exitConfigError
  })
).pipe(Command.withDescription(`Validate a config file and its secrets; exit 0 when valid, ${exitConfigError} when not`))
