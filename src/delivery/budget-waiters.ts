import type { Deferred } from "effect"

/**
 * Who is asking for a request slot. Presses are served first: their footage
 * expires. Auto-highlights next: their footage expires as fast, but nobody is
 * waiting at the court for them. Then the live events' score entries (what people watch now).
 * Background look-ups (which event is live) only take slots that nobody else wants, the reads of
 * clip follow-ups only those left after them, and past events' entries (a backlog an outage left:
 * hours of it at the token's rate) drain in whatever is left, so nothing live waits behind them.
 */
export type Priority = "click" | "auto" | "score" | "probe" | "background" | "follow-up" | "backlog"

export interface Waiter {
  readonly granted: Deferred.Deferred<void>
  /** Clicks and auto-highlights: their press time; others wait in arrival order. */
  readonly order: number
}

// The order slots are granted in; the probe alone while the token is suspended.
const served: ReadonlyArray<Priority> = ["click", "auto", "score", "background", "follow-up", "backlog"]

/** The requests waiting for a slot, one queue per priority. */
export const makeWaiters = () => {
  const queues: Record<Priority, Array<Waiter>> = { click: [], auto: [], score: [], probe: [], background: [], "follow-up": [], backlog: [] }
  return {
    add: (priority: Priority, waiter: Waiter): void => {
      const queue = queues[priority]
      // Behind every waiter of the same or an older order: equal orders keep arrival order.
      const before = priority === "click" || priority === "auto" ? queue.findIndex((w) => w.order > waiter.order) : -1
      queue.splice(before === -1 ? queue.length : before, 0, waiter)
    },
    /** Takes back a waiter that stopped waiting (interrupted). */
    remove: (priority: Priority, waiter: Waiter): void => {
      const queue = queues[priority]
      const at = queue.indexOf(waiter)
      if (at >= 0) queue.splice(at, 1)
    },
    /** The next to serve, taken off its queue, with its priority; while `suspended`, only the probe is. */
    next: (suspended: boolean): { readonly waiter: Waiter; readonly priority: Priority } | undefined => {
      const priority = queues.probe.length > 0 || suspended ? "probe" : served.find((p) => queues[p].length > 0)
      const waiter = priority === undefined ? undefined : queues[priority].shift()
      return waiter === undefined ? undefined : { waiter, priority: priority! }
    },
    any: (suspended: boolean): boolean =>
      queues.probe.length > 0 || (!suspended && served.some((priority) => queues[priority].length > 0)),
    waiting: () => ({ click: queues.click.length + queues.auto.length, score: queues.score.length, backlog: queues.backlog.length })
  }
}
