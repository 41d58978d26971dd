// @ts-check
/**
 * Records event-loop stalls with their times, so a slow latency sample can be laid against what
 * each process was doing then (the daemon through `heap-probe.mjs`, the bench and its in-process
 * simulator directly). A 50 ms timer that fires late by more than `overMs` was held up by the
 * event loop (a synchronous fsync, a GC pause, a long task) for about that long.
 * Plain JavaScript for the same reason as the heap probe.
 */

/** @typedef {{ readonly at: number, readonly ms: number }} Stall */

/**
 * @param {number} overMs
 * @returns {{ take: () => Array<Stall>, stop: () => void }}
 */
export const recordStalls = (overMs) => {
  // Coarse on purpose: under --jitless a 10 ms timer alone costs the daemon 1.5 % of a core.
  const everyMs = 50
  /** @type {Array<Stall>} */
  let stalls = []
  let expected = Date.now() + everyMs
  const timer = setInterval(() => {
    const now = Date.now()
    const late = now - expected
    // Started when the stall began: `at` is when the loop stopped answering.
    if (late > overMs) stalls.push({ at: expected, ms: late })
    // Bounded: a stuck process must not make the probe itself grow without end.
    if (stalls.length > 10_000) stalls.shift()
    expected = now + everyMs
  }, everyMs)
  timer.unref()
  return {
    take: () => {
      const taken = stalls
      stalls = []
      return taken
    },
    stop: () => clearInterval(timer)
  }
}
