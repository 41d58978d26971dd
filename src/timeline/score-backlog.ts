import type { OutboxItem } from "../delivery/outbox.ts"
import type { ScoreBacklog } from "./timeline-model.ts"

/** The event's score entries by delivery state: is the service up to date with the board? */
export const scoreBacklog = (scores: ReadonlyArray<OutboxItem>): ScoreBacklog => {
  const count = (state: OutboxItem["state"]) => scores.filter((item) => item.state === state).length
  const pending = scores.filter((item) => item.state === "pending")
  return {
    pending: pending.length,
    delivered: count("delivered"),
    warning: count("warning"),
    dead: count("dead"),
    oldestPendingAt: pending.length === 0 ? null : Math.min(...pending.map((item) => item.createdAt))
  }
}
