import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs"
import { userInfo } from "node:os"
import { join } from "node:path"
import { type CheckOutcome, fail, ok } from "./check-outcome.ts"

const code = (cause: unknown): string => String((cause as { code?: unknown } | null)?.code ?? "unknown error")

const createAdvice = (directory: string): string =>
  `under systemd, StateDirectory=scorebridge creates /var/lib/scorebridge for the service; run by hand, create it: install -d -m 0700 ${directory}`

/**
 * Writes and removes a probe file: access(2) says yes to root even on a
 * read-only mount, while the outbox needs real writes (and fsync) there.
 */
export const checkStateDirectory = (directory: string): CheckOutcome => {
  const what = `state directory ${directory}`
  try {
    if (!statSync(directory).isDirectory()) return fail(`${what}: not a directory`, "set stateDirectory to a directory (or remove it to use $STATE_DIRECTORY)")
  } catch (cause) {
    return code(cause) === "ENOENT"
      ? fail(`${what}: does not exist (the daemon does not create it)`, createAdvice(directory))
      : fail(`${what}: cannot be examined (${code(cause)})`, createAdvice(directory))
  }
  const probe = join(directory, `.scorebridge-doctor-${process.pid}`)
  try {
    const fd = openSync(probe, "wx", 0o600)
    try {
      writeSync(fd, "probe")
    } finally {
      closeSync(fd)
    }
  } catch (cause) {
    return fail(
      `${what}: not writable by user ${userInfo().username} (${code(cause)})`,
      `make it writable by the user the bridge runs as (chown it to that user), and check the disk is not full or mounted read-only`
    )
  } finally {
    rmSync(probe, { force: true })
  }
  return ok(`${what}: writable`)
}
