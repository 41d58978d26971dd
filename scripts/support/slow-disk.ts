import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { accessSync, closeSync, constants, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { eventually } from "./eventually.ts"

/**
 * A directory on storage whose fsync really takes as long as we say: a FUSE passthrough file
 * system (scripts/support/slowfs.py) over `<directory>/backing`, mounted at `<directory>/mnt`.
 * Every fsync/fdatasync sleeps the delay, then really fsyncs the backing file. Concurrent fsyncs
 * of different files sleep in parallel (per-request latency); the kernel serializes fsyncs of one
 * file and holds that file's inode lock meanwhile, so a write(2) to a file waits for its fsync.
 *
 * Lazy mode models a power cut: a file's writes and truncates stay in the python process's memory
 * until that file is fsynced; `powerCut()` throws every pending one away. Metadata (create,
 * unlink, rename, mkdir) reaches the backing directory at once, so after a cut a file created but
 * never fsynced exists, empty or with its last fsynced bytes. Reopen files after a cut: a handle
 * opened before it may still show the dropped bytes from the kernel's page cache.
 *
 * Block mode (`device: "block"`, the default unless lazy) puts ext4 on a loop device whose image
 * file lives on that FUSE mount, and `path` is the ext4 mount: a slow block device under a real
 * file system. Writes and fsyncs then behave as on a card or eMMC (ext4's journal decides what
 * waits for what, and the loop device sends its flushes one at a time), where on the bare FUSE
 * mount a write(2) waits for an fsync of the same file in flight, as no journalled ext4 does.
 * There the delay is split over the two flushes an ext4 fdatasync sends (the journal commit's
 * pre-flush and its forced write), so one fdatasync takes about `fsyncDelayMs`.
 *
 * Needs /dev/fuse, `fusermount` (apt `fuse`) and Debian's `python3-fusepy` for /usr/bin/python3;
 * block mode also root, a free loop device, `losetup` and `mkfs.ext4`.
 *
 * ```ts
 * const disk = await mountSlowDisk({ directory: dir, fsyncDelayMs: 500 })
 * try { ... use disk.path as the state directory ... } finally { await disk.unmount() }
 * ```
 */
export interface SlowDisk {
  /** The mount point: use it (or a subdirectory) as the daemon's state directory. */
  readonly path: string
  /** From now on every fsync sleeps this long before the real one (0 = a healthy disk). */
  readonly setFsyncDelay: (ms: number) => void
  /**
   * From now on every fsync fails with EIO (after the delay) and syncs nothing, until turned off:
   * a card that fails. On the FUSE mount the caller's fsync/fdatasync gets the EIO; in block mode
   * the loop device's flushes fail, ext4 aborts its journal (the first fdatasync gets EIO) and
   * turns read-only, so every write after that fails with EROFS: a different fault.
   */
  readonly setFsyncFailing: (on: boolean) => void
  /** Lazy mode only: throws away every write not yet fsynced, as a power cut would. Call once the writers are dead. */
  readonly powerCut: () => Promise<void>
  /**
   * The fsyncs so far (from the log); `path` is relative to the FUSE mount, `directory` marks fsyncs
   * of a directory. In block mode they are the loop device's flushes of `/disk.img`.
   */
  readonly fsyncs: () => ReadonlyArray<FsyncRecord>
  /** Unmounts (fusermount -u, lazy -z if busy) and stops the python process; idempotent. */
  readonly unmount: () => Promise<void>
}

export interface FsyncRecord {
  readonly path: string
  readonly startedAt: number
  readonly endedAt: number
  readonly datasync: boolean
  readonly directory: boolean
  /** Failed with EIO (see setFsyncFailing). */
  readonly failed?: boolean
}

const python = "/usr/bin/python3"
const script = fileURLToPath(new URL("./slowfs.py", import.meta.url))
const install = "apt-get install -y fuse python3-fusepy (and give the container /dev/fuse: --device /dev/fuse --cap-add SYS_ADMIN)"

let unavailable: string | undefined | null = null

/** SCOREBRIDGE_WITHOUT_FUSE=1: the explicit opt-out for a machine or container without FUSE (scripts/system-deps.sh then requires none of it either). */
const withoutFuse = process.env["SCOREBRIDGE_WITHOUT_FUSE"] === "1"

/** Undefined when usable; else what is missing and how to install it (one line). */
export const slowDiskUnavailable = (): string | undefined => {
  if (unavailable !== null) return unavailable
  if (withoutFuse) return (unavailable = "slow disk: not used (SCOREBRIDGE_WITHOUT_FUSE=1)")
  const missing: Array<string> = []
  try {
    accessSync("/dev/fuse", constants.R_OK | constants.W_OK)
  } catch {
    missing.push("/dev/fuse")
  }
  if (spawnSync("fusermount", ["-V"]).error !== undefined) missing.push("fusermount")
  if (spawnSync(python, ["-c", "import fusepy"]).status !== 0) missing.push(`${python} with fusepy`)
  for (const tool of ["losetup", "mkfs.ext4"]) if (spawnSync(tool, ["-V"]).error !== undefined) missing.push(tool)
  unavailable = missing.length === 0 ? undefined : `slow disk: no ${missing.join(", ")}; ${install}`
  return unavailable
}

/**
 * For skipIf: the slow disk is unavailable and its tests may skip. In CI a missing slow disk is a
 * failure, never a silent skip, unless SCOREBRIDGE_WITHOUT_FUSE=1 opted out of it.
 */
export const slowDiskSkipped = (): boolean => slowDiskUnavailable() !== undefined && (process.env["CI"] === undefined || withoutFuse)

// Mounts still up, unmounted when the process exits however the tests end: a FUSE mount whose
// python process is gone stays behind as "Transport endpoint is not connected".
const mounted = new Map<string, ChildProcess>()
const blockDevices = new Map<string, string>()
process.once("exit", () => {
  for (const [ext4Point, loop] of blockDevices) detachExt4(ext4Point, loop)
  for (const [mountPoint, child] of mounted) {
    spawnSync("fusermount", ["-u", "-z", "-q", mountPoint])
    child.kill("SIGKILL")
  }
})

export const mountSlowDisk = async (options: {
  readonly directory: string
  readonly fsyncDelayMs?: number
  readonly lazy?: boolean
  /** `block`: ext4 on a loop device over the slow mount (default unless lazy); `fuse`: the FUSE mount itself. */
  readonly device?: "block" | "fuse"
}): Promise<SlowDisk> => {
  const device = options.device ?? (options.lazy === true ? "fuse" : "block")
  if (device === "block" && options.lazy === true) throw new Error("lazy mode works on the FUSE mount only (device: \"fuse\")")
  const backing = join(options.directory, "backing")
  const mountPoint = join(options.directory, "mnt")
  const control = join(options.directory, "control.json")
  const lazy = options.lazy ?? false
  mkdirSync(backing, { recursive: true })
  mkdirSync(mountPoint, { recursive: true })
  const realMountPoint = realpathSync(mountPoint)

  let flushDelayMs = 0
  let failFsyncs = false
  // Written whole then renamed: python re-reads it at every fsync and must never see half of it.
  const writeControl = (): void => {
    writeFileSync(`${control}.tmp`, JSON.stringify({ fsyncDelayMs: flushDelayMs, failFsyncs, lazy }))
    renameSync(`${control}.tmp`, control)
  }
  const setFlushDelay = (ms: number): void => {
    flushDelayMs = ms
    writeControl()
  }
  const setFsyncDelay = (ms: number): void => setFlushDelay(device === "block" ? ms / 2 : ms)
  const setFsyncFailing = (on: boolean): void => {
    failFsyncs = on
    writeControl()
  }
  // mkfs and mount sync too: the delay applies once the disk is ready.
  setFlushDelay(0)
  writeFileSync(`${control}.log`, "")

  // stdin is the control channel; its end (also when this process dies) makes python unmount.
  const child = spawn(python, [script, backing, mountPoint, control], { stdio: ["pipe", "pipe", "pipe"] })
  mounted.set(realMountPoint, child)
  let stderr = ""
  child.stderr.setEncoding("utf8")
  child.stderr.on("data", (text: string) => {
    stderr = (stderr + text).slice(-8_000)
  })
  child.on("error", (err) => {
    stderr += `\n${python}: ${err.message}`
  })
  // stdin errors (EPIPE once python is gone) surface as a failed powerCut, not a crash.
  child.stdin.on("error", () => {})
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()))
  const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null

  const acks: Array<() => void> = []
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (line === "ok powercut") acks.shift()?.()
  })

  try {
    await eventually(
      `the slow disk to be mounted at ${realMountPoint}`,
      () => {
        if (hasExited()) throw new Error(`slowfs.py exited early: ${stderr.trim()}`)
        return isMounted(realMountPoint) ? true : undefined
      },
      { timeoutMs: 10_000 }
    )
  } catch (error) {
    child.kill("SIGKILL")
    mounted.delete(realMountPoint)
    throw new Error(`${(error as Error).message} (python stderr: ${stderr.trim() || "none"})`)
  }

  let path = mountPoint
  if (device === "block") {
    try {
      path = attachBlockDevice(options.directory, mountPoint)
    } catch (error) {
      spawnSync("fusermount", ["-u", "-z", "-q", realMountPoint])
      child.kill("SIGKILL")
      mounted.delete(realMountPoint)
      throw error
    }
  }
  setFsyncDelay(options.fsyncDelayMs ?? 0)

  const powerCut = async (): Promise<void> => {
    if (!lazy) throw new Error("powerCut() needs a slow disk mounted with lazy: true")
    if (hasExited()) throw new Error(`slowfs.py is not running: ${stderr.trim()}`)
    const acked = new Promise<void>((resolve) => acks.push(resolve))
    child.stdin.write("powercut\n")
    await Promise.race([
      acked,
      exited.then(() => {
        throw new Error(`slowfs.py exited before acknowledging the power cut: ${stderr.trim()}`)
      })
    ])
  }

  const fsyncs = (): ReadonlyArray<FsyncRecord> =>
    readFileSync(`${control}.log`, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as FsyncRecord)

  let unmounting: Promise<void> | undefined
  const unmount = (): Promise<void> => {
    unmounting ??= (async () => {
      const loop = blockDevices.get(path)
      if (loop !== undefined) detachExt4(path, loop)
      let busy = false
      if (isMounted(realMountPoint) && spawnSync("fusermount", ["-u", "-q", realMountPoint]).status !== 0) {
        busy = true
        spawnSync("fusermount", ["-u", "-z", "-q", realMountPoint])
      }
      // Unmounted, the FUSE loop ends and python exits by itself; closing stdin is a second way.
      // Detached while busy, the loop would run until the last open file closes: end it now
      // (whoever still holds a file gets ENOTCONN).
      child.stdin.end()
      if (busy) child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
      if (!hasExited()) await exited
      clearTimeout(timer)
      mounted.delete(realMountPoint)
    })()
    return unmounting
  }

  return { path, setFsyncDelay, setFsyncFailing, powerCut, fsyncs, unmount }
}

export const run = (command: string, args: ReadonlyArray<string>): string => {
  const result = spawnSync(command, args, { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${(result.stderr || result.error?.message || "").trim()}`)
  return result.stdout.trim()
}

/** A sparse ext4 image (only what ext4 writes takes room underneath), fsynced: the file system itself survives a cut. */
export const makeExt4Image = (image: string): void => {
  run("truncate", ["-s", "512M", image])
  run("mkfs.ext4", ["-q", "-F", "-E", "nodiscard,lazy_itable_init=1,lazy_journal_init=1", image])
  const fd = openSync(image, "r+")
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Attaches the image to a free loop device and mounts its ext4 at `mountPoint`; returns the device. Detached at exit. */
export const attachExt4 = (image: string, mountPoint: string): string => {
  mkdirSync(mountPoint, { recursive: true })
  const loop = run("losetup", ["--find", "--show", image])
  try {
    run("mount", ["-t", "ext4", loop, mountPoint])
  } catch (error) {
    spawnSync("losetup", ["-d", loop])
    throw error
  }
  blockDevices.set(mountPoint, loop)
  return loop
}

export const detachExt4 = (mountPoint: string, loop: string): void => {
  // Lazily when busy (a killed daemon's files may still be closing): the device goes once free.
  if (spawnSync("umount", [mountPoint]).status !== 0) spawnSync("umount", ["-l", mountPoint])
  spawnSync("losetup", ["-d", loop])
  blockDevices.delete(mountPoint)
}

/** ext4 on a loop device over `<fuseMount>/disk.img`, mounted at `<directory>/ext4`; returns that path. */
const attachBlockDevice = (directory: string, fuseMount: string): string => {
  const image = join(fuseMount, "disk.img")
  const ext4Point = join(directory, "ext4")
  makeExt4Image(image)
  attachExt4(image, ext4Point)
  return ext4Point
}

// /proc/self/mounts escapes spaces and the like as octal (\040).
const isMounted = (mountPoint: string): boolean =>
  readFileSync("/proc/self/mounts", "utf8")
    .split("\n")
    .some((line) => line.split(" ")[1]?.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))) === mountPoint)
