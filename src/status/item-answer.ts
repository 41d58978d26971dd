import type { OutboxItem } from "../delivery/outbox.ts"
import type { Outcome } from "../domain/outcome.ts"

/** The service's answer to one outbox item, as the page shows it. */
export interface Answer {
  readonly state: "queued" | "delivered" | "warning" | "dead" | "missed" | "retrying"
  /** Warning, error or miss reason; for a delivery, the service's result. */
  readonly detail: string | null
  readonly at: number
}

/** A delivery attempt's outcome, as the bus reports it (`Settled`). */
export const answerOfOutcome = (outcome: Outcome, at: number): Answer => {
  switch (outcome._tag) {
    case "Delivered":
      return { state: "delivered", detail: outcome.result === undefined ? null : JSON.stringify(outcome.result), at }
    case "Warning":
      return { state: "warning", detail: outcome.warning, at }
    case "Dead":
      return { state: "dead", detail: outcome.error, at }
    case "Missed":
      return { state: "missed", detail: outcome.reason, at }
    case "Retry":
      return { state: "retrying", detail: `${outcome.kind}: ${outcome.error}`, at }
  }
}

/** An item's answer as the outbox keeps it: what the page shows after a restart, or without waiting for the bus. */
export const answerOfItem = (item: OutboxItem): Answer => {
  const state = item.state === "pending" ? (item.attempts > 0 ? "retrying" : "queued") : item.state
  const detail = item.state === "delivered" ? (item.result === null ? null : JSON.stringify(item.result)) : item.lastError
  return { state, detail, at: item.settledAt ?? item.createdAt }
}
