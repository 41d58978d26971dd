import { accessSync, constants, readFileSync, statSync, type Stats } from "node:fs"
import { userInfo } from "node:os"
import { type CheckOutcome, fail, ok } from "./check-outcome.ts"

const errorCode = (cause: unknown): string => String((cause as { code?: unknown } | null)?.code ?? "unknown error")

/** The group's name from /etc/group, which Node cannot look up itself; the number when it is not listed. */
const groupName = (gid: number): string => {
  try {
    const line = readFileSync("/etc/group", "utf8").split("\n").find((entry) => entry.split(":")[2] === String(gid))
    return line?.split(":")[0] ?? String(gid)
  } catch {
    return String(gid)
  }
}

const mode = (stat: Stats): string => `0${(stat.mode & 0o777).toString(8)}`

/**
 * Whether `path` is a serial device this user can open for reading and
 * writing: it exists (symlinks such as /dev/serial/by-id/… followed), is a
 * character device (a USB adapter, a built-in port or a pty), and access(2)
 * allows read and write. The port is not opened: the running daemon may hold it.
 */
export const checkSerialAccess = (label: string, path: string): CheckOutcome => {
  const what = `${label} ${path}`
  let stat: Stats
  try {
    stat = statSync(path)
  } catch (cause) {
    return errorCode(cause) === "ENOENT"
      ? fail(`${what}: no such device`, "plug in the adapter and check the cable; `ls -l /dev/serial/by-id/` lists the adapters present: put that path in the config")
      : fail(`${what}: cannot be examined (${errorCode(cause)})`, "check that the path and its directories are readable by this user")
  }
  if (!stat.isCharacterDevice()) {
    return fail(`${what}: not a serial device (${stat.isDirectory() ? "a directory" : "a regular file"})`, "point the config at the adapter's device, e.g. /dev/serial/by-id/usb-FTDI_…-if00-port0")
  }
  try {
    accessSync(path, constants.R_OK | constants.W_OK)
  } catch (cause) {
    const group = groupName(stat.gid)
    const user = userInfo().username
    return fail(
      `${what}: not readable and writable by user ${user} (${errorCode(cause)}; device group ${group}, mode ${mode(stat)})`,
      `add the user to the device's group: sudo usermod -aG ${group} ${user}, then log in again (the systemd unit gets it through SupplementaryGroups=dialout); or give the adapter a udev rule with GROUP="dialout", MODE="0660"`
    )
  }
  return ok(`${what}: serial device, readable and writable`)
}
