import { Result, Schema } from "effect"
import { buttonSources } from "../../../adapters/button-registry.ts"
import { checkButtonSources } from "../../config/button-options.ts"
import { Button } from "../../config/buttons.ts"
import { formatPath, issueProblems } from "../../config/problems.ts"
import type { Config } from "../../config/schema.ts"

/** A `buttons:` entry as the config file holds it (what the page upserts by name). */
export type ButtonEntry = typeof Button.Encoded

const strict = { errors: "all", onExcessProperty: "error" } as const

const problemsOf = (issue: Parameters<typeof issueProblems>[0], at: ReadonlyArray<PropertyKey>) =>
  issueProblems(issue, at).map((problem) => `${formatPath(problem.path)}: ${problem.message}`)

/**
 * The entry as the config loader takes it: the config's Button schema, then the loader's own
 * check of its type's options (checkButtonSources: a type without options refuses any). A
 * proposal the config would refuse is never offered.
 */
export const checkEntry = (entry: ButtonEntry): Result.Result<Button, ReadonlyArray<string>> => {
  const decoded = Schema.decodeUnknownResult(Button)(entry, strict)
  if (Result.isFailure(decoded)) return Result.fail(problemsOf(decoded.failure.issue, []))
  const checked = checkButtonSources({ buttons: [decoded.success] } as unknown as Config, buttonSources)
  // The loader words each problem at buttons[0]; the entry is the page's whole subject.
  if (checked.problems.length > 0) return Result.fail(checked.problems.map((p) => `${formatPath(p.path.slice(2))}: ${p.message}`))
  return Result.succeed(checked.config.buttons![0]!)
}

const maxName = 64

/**
 * A config `name` from a device's own name (a zigbee2mqtt friendly name, a Shelly id, a by-id file):
 * what the name allows kept, every other run of characters one "-". "auto" is the auto-highlights'.
 */
export const nameFrom = (raw: string, fallback: string): string => {
  const name = raw.replace(/[^A-Za-z0-9_.-]+/gu, "-").replace(/^-+|-+$/gu, "").slice(0, maxName).replace(/-+$/u, "")
  return name === "" || name === "auto" ? fallback : name
}
