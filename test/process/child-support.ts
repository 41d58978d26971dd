import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { eventually } from "../../scripts/support/eventually.ts"

/** Alive and not a zombie: an orphaned grandchild that died waits for this container's init to reap it. */
export const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  const state = existsSync(`/proc/${pid}/stat`) ? /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1] : undefined
  return state !== undefined && state !== "Z"
}

/** Resolves once none of `pids` runs. */
export const allGone = (what: string, pids: ReadonlyArray<number>): Promise<true> =>
  eventually(what, () => (pids.every((pid) => !isRunning(pid)) ? true : undefined))

/**
 * A script in `dir` that runs `body`, writes its pid and its own child's (a `sleep`, in its
 * process group) to files, then waits: the shape of a wrapper (sudo, a maintainer script) around a tool.
 */
export const wrapperScript = (dir: string, body = ""): string => {
  const path = join(dir, "wrapper")
  writeFileSync(path, `#!/bin/sh\n${body}\necho $$ > "${dir}/pid"\nsleep 30 & echo $! > "${dir}/sleep.pid"\nwait\n`)
  chmodSync(path, 0o755)
  return path
}

/** The wrapper's pid and its sleep's, once both are written. */
export const wrapperPids = (dir: string): Promise<[number, number]> =>
  eventually("the wrapper and its sleep", () => {
    const read = (name: string) => (existsSync(join(dir, name)) ? Number(readFileSync(join(dir, name), "utf8").trim()) : 0)
    return read("pid") > 0 && read("sleep.pid") > 0 ? [read("pid"), read("sleep.pid")] : undefined
  })
