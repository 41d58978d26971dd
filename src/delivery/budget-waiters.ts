import type { Deferred } from "effect"

/**
 * Who is asking for a request slot. Presses are served first: their footage
 * expires. Auto-highlights next: their footage expires as fast, but nobody is
 * waiting at the court for them. Background look-ups (which event is live) only
 * take slots that nobody else wants, and the reads of clip follow-ups only those left after them.
 */
export type Priority = "click" | "auto" | "score" | "probe" | "background" | "follow-up"

export interface Waiter {
  readonly granted: Deferred.Deferred<void>
  /** Clicks and auto-highlights: their press time; others wait in arrival order. */
  readonly order: number
}

// The order slots are granted in; the probe alone while the token is suspended.
const served: ReadonlyArray<Priority> = ["click", "auto", "score", "background", "follow-up"]

/** The requests waiting for a slot, one queue per priority. */
export const makeWaiters = () => {
  const queues: Record<Priority, Array<Waiter>> = { click: [], auto: [], score: [], probe: [], background: [], "follow-up": [] }
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
    /** The next to serve, taken off its queue; while `suspended`, only the probe is. */
    next: (suspended: boolean): Waiter | undefined => {
      if (queues.probe.length > 0 || suspended) return queues.probe.shift()
      for (const priority of served) if (queues[priority].length > 0) return queues[priority].shift()
      return undefined
    },
    any: (suspended: boolean): boolean =>
      queues.probe.length > 0 || (!suspended && served.some((priority) => queues[priority].length > 0)),
    waiting: () => ({ click: queues.click.length + queues.auto.length, score: queues.score.length })
  }
}
