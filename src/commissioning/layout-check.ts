import { Result, Schema } from "effect"
import { protocols } from "../../adapters/registry.ts"
import type { Reading } from "../domain/reading.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import { lookBackMs } from "./layout-finder.ts"
import { fieldWord, type Observation, type ObservedField } from "./layout-observation.ts"
import { readsAs } from "./layout-readings.ts"

/** How the options block fared against the adapter itself. */
export type BlockCheck =
  | { readonly _tag: "reads"; readonly sport: string }
  /** The adapter's options check refuses the block. */
  | { readonly _tag: "refused"; readonly issue: string }
  /** Decoded with the block, the recording shows something else than noted at a moment. */
  | { readonly _tag: "misreads"; readonly observation: Observation; readonly field: ObservedField; readonly read: string }

const oneLine = (text: string) => text.replace(/\s*\n\s*/gu, " ")

/** Why the adapter refuses these options, or undefined when it takes them. */
export const refusal = (protocol: string, options: unknown): string | undefined => {
  const decoded = Schema.decodeUnknownResult(protocols[protocol]!.optionsSchema)(options)
  return Result.isFailure(decoded) ? oneLine(decoded.failure.message) : undefined
}

const valueOf = (reading: Reading, field: ObservedField): string | undefined => {
  const value = reading[field]
  return value === undefined ? undefined : String(value)
}

/** Whether the decoded value is what was noted: numbers as numbers, the clock in any of its forms. */
const sameAsNoted = (field: ObservedField, noted: string, read: string): boolean =>
  field === "clock" ? readsAs("clock", noted, read) || read === noted : /^\d+$/u.test(noted) ? Number(read) === Number(noted) : true

/**
 * Decodes the recording with the block through the adapter (as the daemon would) and compares each
 * noted field with what the decoder read around that moment (field by field: a packet type may carry
 * only some fields). Letters in the period (`O`) are the adapter's to map: not compared.
 */
export const checkBlock = (
  protocol: string,
  options: Readonly<Record<string, unknown>>,
  sport: string,
  chunks: ReadonlyArray<ReceivedChunk>,
  observations: ReadonlyArray<Observation>
): BlockCheck => {
  const refused = refusal(protocol, options)
  if (refused !== undefined) return { _tag: "refused", issue: refused }
  const decoder = protocols[protocol]!.makeDecoder({ ...options, sport })
  const changes = new Map<ObservedField, Array<{ readonly at: number; readonly value: string }>>()
  for (const chunk of chunks) {
    for (const reading of decoder.push(chunk.bytes, chunk.receivedAt)) {
      for (const field of ["home", "away", "period", "clock"] as const) {
        const value = valueOf(reading, field)
        if (value === undefined) continue
        const list = changes.get(field) ?? []
        if (list.at(-1)?.value !== value) list.push({ at: reading.receivedAt, value })
        changes.set(field, list)
      }
    }
  }
  for (const observation of observations) {
    for (const [name, noted] of Object.entries(observation.noted)) {
      const field = name as ObservedField
      if (noted === undefined) continue
      const list = changes.get(field) ?? []
      const from = observation.at - lookBackMs[field]
      const held = list.filter((c, i) => c.at <= observation.at && (c.at > from || (list[i + 1]?.at ?? Infinity) > from))
      if (held.some((c) => sameAsNoted(field, noted, c.value))) continue
      return { _tag: "misreads", observation, field, read: held.at(-1)?.value ?? "nothing" }
    }
  }
  return { _tag: "reads", sport }
}

/** The check's line for the report. */
export const checkLine = (check: BlockCheck, sportMatters: boolean): string => {
  switch (check._tag) {
    case "reads":
      return `Checked: the adapter, with this block${sportMatters ? ` (sport ${check.sport})` : ""}, reads every moment as noted.`
    case "refused":
      return `The adapter refuses this block: ${check.issue}`
    case "misreads":
      return `Checked: the adapter, with this block, reads ${fieldWord(check.field)} ${check.read} at ${check.observation.when}, `
        + `where ${check.observation.noted[check.field]} was noted: the console does something the adapter does not expect; send the capture to support.`
  }
}
