import { bridgeVersion } from "../domain/version.ts"
import { Effect } from "effect"
import { Command } from "effect/cli"
import { allPassed, type CheckOutcome, fail, formatOutcome, ok, summaryLine } from "../commissioning/check-outcome.ts"
import { doctorChecks } from "../commissioning/doctor.ts"
import { checkConfig } from "../config/check.ts"
import { loadConfig } from "../config/load.ts"
import { resolveSecret } from "../config/secrets.ts"
import { configFlag, exitConfigError } from "./config-flag.ts"
import { printLine } from "./printable.ts"

const exitChecksFailed = 1

/**
 * `scorebridge doctor`: every check a technician needs before leaving the
 * venue, one line each, with what to do for each failure. Exit 0 all passed,
 * 1 a check failed, 78 the config does not load (nothing else can be checked).
 */
export const doctorCommand = Command.make(
  "doctor",
  { config: configFlag },
  Effect.fn("doctorCommand")(function*({ config: path }) {
    const checked = yield* checkConfig(path)
    if (!checked.ok) {
      yield* printLine(formatOutcome(fail(`config ${path}: invalid`, "fix the problems below, then run doctor again")))
      yield* printLine(checked.report)
      process.exitCode = exitConfigError
      return
    }
    const configLine = ok(`config ${path}: valid, secrets readable`)
    yield* printLine(formatOutcome(configLine))
    // checkConfig has just read both: failing here means the file changed underneath, still a config problem.
    const prepared = yield* Effect.result(Effect.gen(function*() {
      const config = yield* loadConfig(path)
      const token = yield* resolveSecret(config.service.token, "service.token")
      return { config, token }
    }))
    if (prepared._tag === "Failure") {
      yield* printLine(prepared.failure.message)
      process.exitCode = exitConfigError
      return
    }
    const outcomes: Array<CheckOutcome> = [configLine]
    for (const check of doctorChecks(prepared.success.config, prepared.success.token)) {
      const lines = yield* check
      for (const outcome of lines) yield* printLine(formatOutcome(outcome))
      outcomes.push(...lines)
    }
    yield* printLine(summaryLine(outcomes))
    if (!allPassed(outcomes)) process.exitCode = exitChecksFailed
  })
).pipe(
  Command.withDescription(
    `Check the config, token, places, serial ports, network links (listen ports free, connect targets answering and sending), MQTT broker, clock, state directory and, when the daemon runs, its event loop's delay; exit 0 when all pass, ${exitChecksFailed} when a check fails, ${exitConfigError} when the config does not load`
  ),
  Command.withExamples([{ command: "scorebridge doctor --config /etc/scorebridge/config.yaml", description: "Run every check with the installed config" }])
)

/** Runs `doctor` with the given arguments (without the leading `doctor`), as `scorebridge doctor …` would. */
export const runDoctor = Command.runWith(doctorCommand, { version: bridgeVersion })
