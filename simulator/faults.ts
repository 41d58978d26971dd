import { Schema } from "effect"

export const FaultSpec = Schema.Struct({
  kind: Schema.Literals(["status", "reset", "reset-after-apply", "hang", "latency"]),
  status: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 599 }))),
  latencyMs: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 120_000 }))),
  count: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  durationMs: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  pathPrefix: Schema.optional(Schema.String)
}).check(Schema.makeFilter((f) => {
  if (f.kind === "status" && f.status === undefined) return { path: ["status"], issue: "status is required for kind status" }
  if (f.kind === "latency" && f.latencyMs === undefined) return { path: ["latencyMs"], issue: "latencyMs is required for kind latency" }
  return undefined
}))

export type Fault = typeof FaultSpec.Type
export type FaultKind = Fault["kind"]

interface ActiveFault {
  readonly fault: Fault
  remaining: number
  readonly until: number
}

/**
 * Injected faults, matched in injection order. A fault lasts for `count`
 * requests, or `durationMs`, or both (whichever ends first); with neither it
 * hits the next matching request only.
 */
export class FaultBook {
  #active: Array<ActiveFault> = []

  add(fault: Fault, now: number): void {
    const limitedByTime = fault.durationMs !== undefined
    this.#active.push({
      fault,
      remaining: fault.count ?? (limitedByTime ? Number.POSITIVE_INFINITY : 1),
      until: limitedByTime ? now + (fault.durationMs ?? 0) : Number.POSITIVE_INFINITY
    })
  }

  clear(): void {
    this.#active = []
  }

  /** The fault that hits this request, if any; each hit uses up one of its count. */
  take(path: string, now: number): Fault | undefined {
    this.#active = this.#active.filter((a) => a.remaining > 0 && a.until > now)
    const hit = this.#active.find((a) => path.startsWith(a.fault.pathPrefix ?? ""))
    if (hit === undefined) return undefined
    hit.remaining -= 1
    return hit.fault
  }
}
