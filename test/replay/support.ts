import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { ReplayRecord, SummaryRecord } from "../../src/replay/replay.ts"

export const fixturePath = (name: string): string => join(import.meta.dirname, "../../adapters/daktronics-rtd/fixtures", name)
export const cleanCapturePath = fixturePath("football-j5-capture.bin")
export const terminalCapturePath = fixturePath("football-j6-terminal-capture.bin")
export const fixture = (path: string): Uint8Array => new Uint8Array(readFileSync(path))

export const SYN = 0x16
export const ETB = 0x17

export const readingsOf = (records: ReadonlyArray<ReplayRecord>) => records.flatMap((r) => r.type === "reading" ? [r] : [])
export const entriesOf = (records: ReadonlyArray<ReplayRecord>) => records.flatMap((r) => r.type === "entry" ? [r] : [])

export const summaryOf = (records: ReadonlyArray<ReplayRecord>): SummaryRecord => {
  const last = records.at(-1)
  if (last?.type !== "summary") throw new Error(`the last record is not the summary: ${JSON.stringify(last)}`)
  return last
}

/**
 * The generic (football) change rule written out independently: a reading
 * with both scores makes an entry when home, away or period differs from the
 * last entry's.
 */
export const expectedGenericChanges = (readings: ReadonlyArray<{ home?: number; away?: number; period?: number }>) => {
  const changes: Array<number> = []
  let last: string | undefined
  readings.forEach((reading, index) => {
    if (reading.home === undefined || reading.away === undefined) return
    const score = `${reading.home}-${reading.away}-${reading.period ?? 0}`
    if (score === last) return
    last = score
    changes.push(index)
  })
  return changes
}
