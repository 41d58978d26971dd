import { closeSync, constants, existsSync, openSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"
import { type Child, hasExited, startChild } from "./child.ts"
import { eventually } from "./eventually.ts"

/**
 * A serial cable made of two pseudo-terminals joined by socat:
 * the daemon opens `daemonPath` as its serial port, the test writes to `writerPath`.
 *
 * - `unplug()` ends socat, the way pulling a USB adapter ends the daemon's device: reads on the
 *   daemon's end fail and both link paths vanish.
 * - `replug()` starts socat again with the same link paths (new /dev/pts numbers behind them).
 * - `stop()` ends it for good; call it in `afterEach` so no socat outlives its test.
 *
 * Stale bytes: bytes written while nobody has the other end open are queued (~16 kB) and
 * delivered later to whoever opens it. A fresh pair has none, so open a writer only once the
 * daemon is connected, and keep it closed while the daemon is down in restart tests.
 *
 * ```ts
 * let pty: PtyPair
 * beforeEach(async () => { pty = await startPtyPair(dir) })
 * afterEach(() => pty.stop())
 * ```
 */
export interface PtyPair {
  readonly daemonPath: string
  readonly writerPath: string
  readonly unplug: () => Promise<void>
  readonly replug: () => Promise<void>
  readonly stop: () => Promise<void>
}

export const startPtyPair = async (dir: string, name = "tty"): Promise<PtyPair> => {
  const daemonPath = join(dir, `${name}-daemon`)
  const writerPath = join(dir, `${name}-writer`)
  let socat: Child | undefined

  const plug = async (): Promise<void> => {
    removeLinks()
    const child = startChild("socat", [
      "-d",
      "-d",
      `pty,raw,echo=0,link=${daemonPath}`,
      `pty,raw,echo=0,link=${writerPath}`
    ])
    socat = child
    await eventually("socat to create both pty links", () => {
      if (hasExited(child)) throw new Error(`socat exited early: ${child.stderr()}`)
      return existsSync(daemonPath) && existsSync(writerPath) ? true : undefined
    })
  }

  // socat removes its links on SIGTERM, but not if it was killed; a dangling link would let the
  // daemon "open" a path whose pts number may by then belong to another pair.
  const removeLinks = (): void => {
    rmSync(daemonPath, { force: true })
    rmSync(writerPath, { force: true })
  }

  const unplug = async (): Promise<void> => {
    const child = socat
    socat = undefined
    await child?.stop()
    removeLinks()
  }

  await plug()
  return { daemonPath, writerPath, unplug, replug: plug, stop: unplug }
}

/**
 * The test's end of the cable. Opened with O_NOCTTY so the pty never becomes the test worker's
 * controlling terminal. Close it in `afterEach` (or `finally`).
 */
export interface PtyWriter {
  readonly write: (bytes: Uint8Array | string) => void
  readonly close: () => void
}

export const openWriter = (writerPath: string): PtyWriter => {
  const fd = openSync(writerPath, constants.O_WRONLY | constants.O_NOCTTY)
  let open = true
  return {
    write: (bytes) => {
      const buffer = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : Buffer.from(bytes)
      let offset = 0
      // writeSync may write less than asked on a tty; bounded because every pass writes ≥1 byte or throws.
      while (offset < buffer.length) offset += writeSync(fd, buffer, offset)
    },
    close: () => {
      if (open) closeSync(fd)
      open = false
    }
  }
}

/** Writes `bytes` to the writer end in one go: open, write, close. */
export const writeToPty = (writerPath: string, bytes: Uint8Array | string): void => {
  const writer = openWriter(writerPath)
  try {
    writer.write(bytes)
  } finally {
    writer.close()
  }
}
