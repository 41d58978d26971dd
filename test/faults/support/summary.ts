import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * The figures of a fault run, one line per scenario, merged into
 * test-artifacts/faults-summary.json (each test file runs in its own worker, so the file is
 * read, merged and rewritten rather than held in memory).
 */
export interface ScenarioFigures {
  runs: number
  faultsInjected: number
  entriesSent: number
  entriesDelivered: number
  pressesSent: number
  pressesDelivered: number
  duplicates: number
  crashes: number
  notes?: string
}

const file = join(import.meta.dirname, "../../../test-artifacts/faults-summary.json")

export const figures = (): ScenarioFigures => ({
  runs: 0, faultsInjected: 0, entriesSent: 0, entriesDelivered: 0, pressesSent: 0, pressesDelivered: 0, duplicates: 0, crashes: 0
})

export const recordFigures = (scenario: string, values: ScenarioFigures): void => {
  mkdirSync(join(file, ".."), { recursive: true })
  let all: Record<string, unknown> = {}
  try {
    all = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
  } catch {
    // First scenario of the run, or a previous file that was cut short: start afresh.
  }
  all[scenario] = { mode: process.env["FAULTS"] === "long" ? "long" : "short", at: new Date().toISOString(), ...values }
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`)
  const { notes, ...counts } = values
  process.stderr.write(`faults summary ${scenario}: ${Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(" ")}${notes ? ` (${notes})` : ""}\n`)
}
