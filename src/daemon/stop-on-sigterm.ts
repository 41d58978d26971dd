import { Effect } from "effect"

/** SIGTERM to exit: the promise to operators is 5 s; systemd's TimeoutStopSec is 10. */
export const stopDeadlineMs = 4_500

/** How long a still-running file operation may take to finish before we stop waiting for it. */
const threadpoolGraceMs = 500

/**
 * Dies of SIGTERM with the default action: no exit handlers, no joining of libuv's threadpool.
 * systemd counts a main process killed by SIGTERM as a clean stop.
 */
const dieBySigterm = (): never => {
  process.removeAllListeners("SIGTERM")
  process.kill(process.pid, "SIGTERM")
  // Unreachable: a signal sent to oneself with its default action ends the process in kill().
  return process.exit(143)
}

/**
 * The stop that systemd asks for with SIGTERM. runMain turns SIGTERM into an interruption and
 * exit code 130, which systemd counts as a failed unit; a stop that was asked for and has
 * released everything is a success, so the returned effect (run after the daemon is released)
 * exits 0. Whatever was acknowledged or sent is already on disk, and the rest of the outbox is in
 * the page cache, which outlives the process: a forced end loses nothing.
 *
 * process.exit joins libuv's threadpool, and a read blocked on an idle input device (a button
 * nobody presses) never returns, so exit would hang until SIGKILL. Such a read shows as a pending
 * FSReqCallback; with one left after a short grace, the process ends by the signal instead.
 */
export const exitCleanlyOnSigterm = () => {
  let requested = false
  const onSigterm = () => {
    if (requested) return
    requested = true
    setTimeout(() => {
      process.stderr.write(`scorebridge: shutdown did not finish within ${stopDeadlineMs} ms; ending now (the outbox is already on disk)\n`)
      dieBySigterm()
    }, stopDeadlineMs).unref()
  }
  // Before runMain's own listener, so the flag is set when the interruption's finalizers run.
  process.prependListener("SIGTERM", onSigterm)

  const threadpoolIdle = Effect.sync(() => !process.getActiveResourcesInfo().includes("FSReqCallback"))
  return Effect.gen(function*() {
    process.off("SIGTERM", onSigterm)
    if (!requested) return
    for (let waited = 0; waited < threadpoolGraceMs && !(yield* threadpoolIdle); waited += 50) yield* Effect.sleep(50)
    if (yield* threadpoolIdle) return process.exit(0)
    process.stderr.write("scorebridge: stopped; a device read is still blocked, ending by SIGTERM\n")
    dieBySigterm()
  })
}
