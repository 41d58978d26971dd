import type { RecordedRequest } from "../simulator/control-client.ts"
import type { Matched } from "./deliveries.ts"
import { lines429, worst } from "./explain.ts"
import { type Percentiles, percentiles } from "./stats.ts"

/** Every figure goes to stdout as soon as it is known: a run that fails late still shows the phases before. */
export const say = (text: string): void => void process.stdout.write(`${text}\n`)

/** Prints a phase's heading; each phase names its own, the orchestrator decides the count. */
export type Heading = (text: string) => void

/** Headings numbered `[n/count]`: earlier runs and docs/performance.md refer to phases by these numbers. */
export const headings = (count: number): Heading => {
  let phase = 0
  return (text) => say(`\n[${++phase}/${count}] ${text}`)
}

/**
 * `  label: p50 … ms, p99 … ms, max … ms (n=…<counted>)<after>`: one shape for every latency-like
 * figure, so that runs (and the tables in docs/performance.md) compare line by line.
 */
export const sayPercentiles = (
  label: string,
  values: ReadonlyArray<number>,
  { counted = "", after = "" }: { readonly counted?: string; readonly after?: string } = {}
): Percentiles => {
  const p = percentiles(values)
  say(`  ${label}: p50 ${p.p50} ms, p99 ${p.p99} ms, max ${p.max} ms (n=${p.n}${counted})${after}`)
  return p
}

/** A latency figure as the JSON line holds it: the percentiles and the samples that never arrived. */
export interface LatencyFigure extends Percentiles {
  readonly lost: number
}

/** A matched latency with its losses; `slowest` adds where its slowest sample spent its time. */
export const sayLatency = (label: string, matched: Matched, { slowest = false } = {}): LatencyFigure => {
  const p = sayPercentiles(label, matched.latencies, { counted: `, lost ${matched.lost}`, after: slowest ? worst(matched) : "" })
  return { ...p, lost: matched.lost }
}

/** Prints each 429 with the request before it and returns how many there were. */
export const say429s = (requests: ReadonlyArray<RecordedRequest>): number => {
  for (const line of lines429(requests)) say(line)
  return requests.filter((r) => r.status === 429).length
}
