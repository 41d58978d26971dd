import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * The root a systemd container boots from: an overlay of this machine's own `/` (read-only lower)
 * with a tmpfs upper and work dir, so everything the container writes (packages, users, units,
 * the journal) vanishes with the tmpfs and the host's files are never written. The quirks that
 * keep systemd 252 from booting cleanly here are fixed in that upper layer before the boot
 * (../shared/testing-notes.md, "A real systemd as PID 1").
 */
export interface ContainerRoot {
  /** The overlay's merged view: the container's `/`, as seen from the host. */
  readonly merged: string
  /** Unmounts the overlay and the tmpfs and removes the directory; safe to call twice. */
  readonly remove: () => void
}

/** Runs a host tool that must succeed; its output goes into the error that says what failed. */
export const must = (command: string, args: ReadonlyArray<string>, what: string): string => {
  const ran = spawnSync(command, args, { encoding: "utf8", timeout: 30_000 })
  if (ran.status === 0) return ran.stdout
  throw new Error(`${what}: ${command} ${args.join(" ")} exited ${ran.status ?? ran.signal ?? ran.error?.message}: ${ran.stderr}`.trim())
}

const mounted = (path: string): boolean => readFileSync("/proc/self/mounts", "utf8").split("\n").some((line) => line.split(" ")[1] === path)

/** umount, and a lazy one if something (a process still leaving) keeps it busy. */
const unmount = (path: string): void => {
  if (!mounted(path)) return
  if (spawnSync("umount", [path], { timeout: 30_000 }).status !== 0) spawnSync("umount", ["-l", path], { timeout: 30_000 })
}

/** Mounts the overlay under `base` (a fresh directory of the caller's). */
export const mountContainerRoot = (base: string, { sizeMb = 1024 }: { readonly sizeMb?: number } = {}): ContainerRoot => {
  const layer = join(base, "layer")
  const merged = join(base, "merged")
  mkdirSync(layer)
  mkdirSync(merged)
  const remove = () => {
    unmount(merged)
    unmount(layer)
    // Only once nothing is mounted below it: rm must never reach into a merged view of `/`.
    if (!mounted(merged) && !mounted(layer)) rmSync(base, { recursive: true, force: true })
  }
  try {
    must("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m,mode=0700`, "tmpfs", layer], "a tmpfs for the container's upper layer")
    mkdirSync(join(layer, "upper"))
    mkdirSync(join(layer, "work"))
    const options = `lowerdir=/,upperdir=${join(layer, "upper")},workdir=${join(layer, "work")}`
    must("mount", ["-t", "overlay", "-o", options, "overlay", merged], "an overlay of / for the container")
    fixQuirks(merged)
  } catch (error) {
    remove()
    throw error
  }
  return { merged, remove }
}

const fixQuirks = (merged: string): void => {
  // Its own identity: the host's machine-id would give the container's journal the host's.
  writeFileSync(join(merged, "etc/machine-id"), `${randomBytes(16).toString("hex")}\n`)
  // Docker-style images refuse every service start from maintainer scripts (exit 101).
  rmSync(join(merged, "usr/sbin/policy-rc.d"), { force: true })
  // SupplementaryGroups=input fails with 216/GROUP where udev never made the group.
  if (!/^input:/m.test(readFileSync(join(merged, "etc/group"), "utf8"))) must("groupadd", ["--root", merged, "--system", "input"], "the input group in the container")
  dropEnabledUnits(join(merged, "etc/systemd/system"))
}

/**
 * The machine's own enabled units (a database, a broker, Prometheus, timers, the host's
 * scorebridge if installed) would start in every container: a test enables what it installs.
 */
const dropEnabledUnits = (unitDir: string): void => {
  if (!existsSync(unitDir)) return
  for (const folder of readdirSync(unitDir).filter((name) => /\.(wants|requires)$/.test(name))) {
    const dir = join(unitDir, folder)
    for (const link of readdirSync(dir)) {
      if (lstatSync(join(dir, link)).isSymbolicLink()) rmSync(join(dir, link))
    }
  }
}
