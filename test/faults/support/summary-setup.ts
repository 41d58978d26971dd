import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"

/**
 * vitest globalSetup of the fault suite: a run starts with no figures and ends by printing all
 * of them, one line per scenario (test-artifacts/faults-summary.json keeps them).
 */
const file = join(import.meta.dirname, "../../../test-artifacts/faults-summary.json")
let startedAt = 0

export const setup = (): void => {
  startedAt = Date.now()
  rmSync(file, { force: true })
}

export const teardown = (): void => {
  let all: Record<string, Record<string, unknown>> = {}
  try {
    all = JSON.parse(readFileSync(file, "utf8")) as typeof all
  } catch {
    return // no scenario ran
  }
  const lines = Object.entries(all).map(([scenario, figures]) =>
    `  ${scenario.padEnd(16)} ${["runs", "faultsInjected", "entriesSent", "entriesDelivered", "pressesSent", "pressesDelivered", "duplicates", "crashes"]
      .map((key) => `${key}=${String(figures[key])}`).join(" ")}${figures["notes"] ? `\n${" ".repeat(19)}${String(figures["notes"])}` : ""}`)
  process.stdout.write(`\nfault suite figures (${Math.round((Date.now() - startedAt) / 1000)} s, ${file}):\n${lines.join("\n")}\n`)
}
