/**
 * What became of one delivery attempt, in the scheduler's terms. The deliverer
 * turns the service's answers into these; the scheduler records them and
 * decides whether and when to try again.
 */
export type Outcome =
  | { readonly _tag: "Delivered"; readonly result: unknown }
  /** Accepted but nothing was recorded (e.g. no event running): settled, shown, not retried. */
  | { readonly _tag: "Warning"; readonly warning: string; readonly result?: unknown }
  /** Can never succeed unchanged (400/403/404/409/417): kept as a dead letter. */
  | { readonly _tag: "Dead"; readonly error: string }
  /** A click sent too late for its footage (it may still have made a moment: see result). */
  | { readonly _tag: "Missed"; readonly reason: string; readonly result?: unknown }
  /** `inDoubt`: the request may have reached the service; the next attempt reconciles first. */
  | { readonly _tag: "Retry"; readonly kind: RetryKind; readonly error: string; readonly inDoubt?: boolean }

/**
 * transient: 5xx, network, timeout — retried on the item's back-off schedule.
 * rate-limited: 429 — the whole token backs off.
 * unauthorized: 401 — the token is suspended until a probe succeeds.
 */
export type RetryKind = "transient" | "rate-limited" | "unauthorized"

export const Outcome = {
  delivered: (result: unknown): Outcome => ({ _tag: "Delivered", result }),
  warning: (warning: string, result?: unknown): Outcome => ({ _tag: "Warning", warning, result }),
  dead: (error: string): Outcome => ({ _tag: "Dead", error }),
  missed: (reason: string, result?: unknown): Outcome => ({ _tag: "Missed", reason, result }),
  retry: (kind: RetryKind, error: string, inDoubt = false): Outcome => ({ _tag: "Retry", kind, error, inDoubt })
}
