import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { type ContainerRoot, mountContainerRoot } from "./container-root.ts"
import { eventually } from "./eventually.ts"

/**
 * This machine's own systemd booted as PID 1 of a throw-away container (systemd-nspawn over an
 * overlay of `/`, scripts/support/container-root.ts), for tests of units, the package and the
 * setup unit where they really run. The container has a network of its own (loopback only) and
 * its own cgroups; nothing it does reaches the host's files, services or network. `machinectl`
 * and `systemd-run -M` need a host systemd, which these machines lack: commands run inside
 * through `nsenter` into the namespaces of the container's PID 1.
 *
 * ```ts
 * const container = await bootSystemdContainer("daemon-unit")
 * try { (await container.run(["systemctl", "is-active", "dbus"])).stdout } finally { await container.stop() }
 * ```
 */
export interface SystemdContainer {
  readonly name: string
  /** The host's PID of the container's systemd, for `nsenter -t` (its network namespace, say). */
  readonly pid1: number
  /** Runs a command inside as root, with a plain environment; resolves when it exits or after `timeoutMs` (SIGKILL). */
  readonly run: (command: ReadonlyArray<string>, options?: RunOptions) => Promise<Ran>
  /** Starts a command inside that keeps running (a server, a listener); stop it, or it ends with the container. */
  readonly start: (command: ReadonlyArray<string>) => Started
  /** Copies a host file to `path` inside (through the overlay's upper layer). */
  readonly copyIn: (hostFile: string, path: string) => void
  readonly writeFile: (path: string, content: string, mode?: number) => void
  readonly readFile: (path: string) => string
  /** Everything the container's console showed so far (systemd's boot messages), for failure messages. */
  readonly console: () => string
  /** Powers the container off (SIGTERM to nspawn, SIGKILL after a bound), unmounts, removes its cgroups. Safe to call twice. */
  readonly stop: () => Promise<void>
}

export interface RunOptions {
  readonly input?: string
  readonly timeoutMs?: number
}

export interface Ran {
  readonly stdout: string
  readonly stderr: string
  /** The exit code; null when killed by a signal (the timeout's SIGKILL). */
  readonly code: number | null
}

export interface Started {
  readonly output: () => string
  readonly exited: () => boolean
  readonly stop: () => Promise<void>
}

const nspawn = "systemd-nspawn"

/** Why this machine cannot boot a systemd container, or undefined when it can try. */
export const systemdContainerUnavailable = (): string | undefined => {
  if (process.getuid?.() !== 0) return "needs root (systemd-nspawn, mount and nsenter): run the suite as root, as CI does"
  for (const tool of [nspawn, "nsenter", "mount", "groupadd"]) {
    if (spawnSync("/bin/sh", ["-c", `command -v ${tool}`]).status !== 0) return `${tool} is not installed (scripts/system-deps.sh lists its package; as root it installs it)`
  }
  if (cgroupHierarchies().length === 0) return "no cgroup hierarchy for the container under /sys/fs/cgroup"
  return undefined
}

// nspawn needs a cgroup of its own in the name=systemd hierarchy and in the (here empty) unified
// one: started from this process's, it would take the test worker's cgroup over.
const cgroupHierarchies = (): ReadonlyArray<string> => {
  const split = ["/sys/fs/cgroup/systemd", "/sys/fs/cgroup/unified"].filter((dir) => existsSync(join(dir, "cgroup.procs")))
  if (split.length > 0) return split
  return existsSync("/sys/fs/cgroup/cgroup.subtree_control") ? ["/sys/fs/cgroup"] : []
}

// Containers a worker started, powered off hard if the worker exits without stopping them.
const running = new Set<() => void>()
process.once("exit", () => {
  for (const kill of running) kill()
})

/** A machine name no other container here has: tests in two workers may boot at once. */
const uniqueName = (label: string): string => `sb-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 40)}-${randomBytes(3).toString("hex")}`

/** Boots a container and waits until its systemd is up ("running" or "degraded"); throws with the console's tail when it cannot. */
export const bootSystemdContainer = async (label: string, { bootTimeoutMs = 60_000 }: { readonly bootTimeoutMs?: number } = {}): Promise<SystemdContainer> => {
  const name = uniqueName(label)
  const base = mkdtempSync(join(tmpdir(), `scorebridge-nspawn-${name}-`))
  const consoleFile = join(base, "console.log")
  let root: ContainerRoot | undefined
  let machine: ChildProcess | undefined
  let pid1: number | undefined
  const cgroups = cgroupHierarchies().map((hierarchy) => join(hierarchy, name))
  const hardKill = () => {
    for (const pid of [pid1, machine?.pid]) if (pid !== undefined) signal(pid, "SIGKILL")
    if (root !== undefined) spawnSync("umount", ["-l", root.merged])
  }
  // Commands started inside through nsenter: a server that ignores SIGTERM would hold systemd's
  // shutdown for its 90 s stop timeout, so they are killed before the power-off.
  const entered = new Set<ChildProcess>()
  const stop = async () => {
    running.delete(hardKill)
    await Promise.all([...entered].map((child) => ended(child, (signal) => killTree(child, signal))))
    if (machine !== undefined) await powerOff(machine, () => pid1)
    root?.remove()
    await removeCgroups(cgroups)
    // nspawn's own per-machine directory on the host, if a hard kill left it.
    rmSync(join("/run/systemd/nspawn/propagate", name), { recursive: true, force: true })
    rmSync(base, { recursive: true, force: true })
  }
  running.add(hardKill)
  try {
    root = mountContainerRoot(base)
    machine = launch(name, root.merged, cgroups, consoleFile)
    pid1 = await containerInit(machine, () => readConsole(consoleFile), bootTimeoutMs)
    const container = makeContainer({ name, pid1, merged: root.merged, consoleText: () => readConsole(consoleFile), stop, entered })
    await systemUp(container, bootTimeoutMs)
    return container
  } catch (error) {
    const shown = readConsole(consoleFile).slice(-3_000)
    await stop()
    throw new Error(`the systemd container ${name} did not boot: ${error instanceof Error ? error.message : String(error)}\nconsole:\n${shown}`)
  }
}

const readConsole = (file: string): string => (existsSync(file) ? readFileSync(file, "utf8") : "")

const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name)
  } catch {
    // Gone already.
  }
}

const launch = (name: string, merged: string, cgroups: ReadonlyArray<string>, consoleFile: string): ChildProcess => {
  for (const cgroup of cgroups) mkdirSync(cgroup, { recursive: true })
  const enter = cgroups.map((cgroup) => `echo $$ > ${cgroup}/cgroup.procs`).join(" && ")
  const args = ["-D", merged, "-M", name, "--register=no", "--keep-unit", "--private-network", "--console=read-only", "-b"]
  const out = openSync(consoleFile, "a")
  try {
    // The shell moves itself into the container's cgroups, then becomes nspawn.
    return spawn("sh", ["-c", `${enter} && exec ${nspawn} "$@"`, "sh", ...args], { stdio: ["ignore", out, out], env: plainEnvironment })
  } finally {
    closeSync(out)
  }
}

const plainEnvironment = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C.UTF-8", HOME: "/root", TERM: "dumb" }

const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null

/** The host PID of the container's PID 1 once it runs systemd: the descendant of nspawn that is PID 1 of its own namespace. */
const containerInit = (machine: ChildProcess, consoleText: () => string, timeoutMs: number): Promise<number> =>
  eventually("the container's PID 1 to run systemd", () => {
    if (exited(machine)) throw new Error(`systemd-nspawn exited ${machine.exitCode ?? machine.signalCode}: ${consoleText().slice(-1_500)}`)
    return descendants(machine.pid!).find((pid) => isInitOfItsNamespace(pid))
  }, { timeoutMs, intervalMs: 50 })

const descendants = (pid: number): ReadonlyArray<number> => {
  const children = readProc(`/proc/${pid}/task`, (tasks) => readdirSync(tasks).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/)))
  const direct = (children ?? []).filter((text) => text !== "").map(Number)
  return direct.flatMap((child) => [child, ...descendants(child)])
}

const isInitOfItsNamespace = (pid: number): boolean =>
  readProc(`/proc/${pid}/status`, (file) => {
    const status = readFileSync(file, "utf8")
    return /^NSpid:.*\s1$/m.test(status) && /^Name:\s+systemd$/m.test(status)
  }) === true

/** A /proc read that finds the process gone (it exited meanwhile) gives undefined. */
const readProc = <A>(path: string, read: (path: string) => A): A | undefined => {
  try {
    return read(path)
  } catch {
    return undefined
  }
}

const systemUp = async (container: SystemdContainer, timeoutMs: number): Promise<void> => {
  // Until systemd has opened its private bus (a few ms after exec), systemctl cannot ask it anything.
  const state = await eventually("systemd in the container to answer systemctl", async () => {
    const ran = await container.run(["systemctl", "is-system-running", "--wait"], { timeoutMs })
    return ran.stderr.includes("Failed to connect to bus") ? undefined : ran
  }, { timeoutMs, intervalMs: 50 })
  // "degraded": a unit of the machine's own failed; the container still serves the tests.
  if (["running", "degraded"].includes(state.stdout.trim())) return
  const failed = await container.run(["systemctl", "--failed", "--no-legend", "--no-pager"], { timeoutMs: 10_000 })
  throw new Error(`systemctl is-system-running said "${state.stdout.trim()}" ${state.stderr.trim()}; failed units: ${failed.stdout.trim() || "none"}`)
}

interface ContainerParts {
  readonly name: string
  readonly pid1: number
  readonly merged: string
  readonly consoleText: () => string
  readonly stop: () => Promise<void>
  readonly entered: Set<ChildProcess>
}

const makeContainer = ({ name, pid1, merged, consoleText, stop, entered }: ContainerParts): SystemdContainer => {
  const inside = (path: string) => join(merged, path)
  const nsenter = (command: ReadonlyArray<string>) => {
    const child = spawn("nsenter", ["-t", String(pid1), "-a", "--", ...command], { env: plainEnvironment })
    entered.add(child)
    child.once("close", () => entered.delete(child))
    return child
  }
  const writeFile = (path: string, content: string, mode = 0o644) => {
    mkdirSync(dirname(inside(path)), { recursive: true })
    writeFileSync(inside(path), content)
    chmodSync(inside(path), mode)
  }
  const copyIn = (hostFile: string, path: string) => {
    mkdirSync(dirname(inside(path)), { recursive: true })
    copyFileSync(hostFile, inside(path))
  }
  return {
    name,
    pid1,
    run: (command, options) => collect(nsenter(command), options),
    start: (command) => started(nsenter(command)),
    copyIn,
    writeFile,
    readFile: (path) => readFileSync(inside(path), "utf8"),
    console: consoleText,
    stop
  }
}

const collect = (child: ChildProcess, { input, timeoutMs = 60_000 }: RunOptions = {}): Promise<Ran> =>
  new Promise((resolve) => {
    let stdout = ""
    let stderr = ""
    child.stdout?.setEncoding("utf8").on("data", (text: string) => (stdout += text))
    child.stderr?.setEncoding("utf8").on("data", (text: string) => (stderr += text))
    child.on("error", (error) => (stderr += `\nnsenter: ${error.message}`))
    // A command that exits without reading its stdin closes the pipe first: EPIPE is no error of the test's.
    child.stdin?.on("error", () => undefined)
    child.stdin?.end(input ?? "")
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms)`
      killTree(child, "SIGKILL")
    }, timeoutMs)
    child.once("close", (code) => {
      clearTimeout(timer)
      resolve({ stdout, stderr, code })
    })
  })

/**
 * nsenter forks the command into the container's PID namespace: a signal to nsenter alone would
 * leave it running, and nsenter killed first would leave it a zombie no one in the container
 * reaps (systemd's shutdown then waits for it). So the command and its children are signalled,
 * and nsenter, waiting for it, exits with it; nsenter itself only when it has nothing inside.
 */
const killTree = (child: ChildProcess, name: NodeJS.Signals): void => {
  if (child.pid === undefined) return
  const inside = descendants(child.pid)
  for (const pid of inside.length > 0 ? inside : [child.pid]) signal(pid, name)
}

const started = (child: ChildProcess): Started => {
  let output = ""
  const keep = (text: string) => (output = (output + text).slice(-20_000))
  child.stdout?.setEncoding("utf8").on("data", keep)
  child.stderr?.setEncoding("utf8").on("data", keep)
  child.on("error", (error) => keep(`\nnsenter: ${error.message}`))
  child.stdin?.end()
  const done = new Promise<void>((resolve) => (exited(child) ? resolve() : child.once("close", () => resolve())))
  return {
    output: () => output,
    exited: () => exited(child),
    stop: async () => {
      if (!exited(child)) killTree(child, "SIGTERM")
      const timer = setTimeout(() => killTree(child, "SIGKILL"), 5_000)
      await done
      clearTimeout(timer)
    }
  }
}

/** Resolves once `child` has exited: SIGKILL now, again after 2 s, at most 5 s in all. */
const ended = (child: ChildProcess, kill: (signal: NodeJS.Signals) => void): Promise<void> =>
  new Promise((resolve) => {
    if (exited(child)) return resolve()
    const timers = [setTimeout(() => kill("SIGKILL"), 2_000), setTimeout(resolve, 5_000)]
    child.once("exit", () => {
      for (const timer of timers) clearTimeout(timer)
      resolve()
    })
    kill("SIGKILL")
  })

/** SIGTERM makes nspawn power the container off cleanly (about 2 s); a hung one is killed with its whole PID namespace. */
const powerOff = async (machine: ChildProcess, pid1: () => number | undefined): Promise<void> => {
  const gone = new Promise<void>((resolve) => (exited(machine) ? resolve() : machine.once("exit", () => resolve())))
  const within = (ms: number) => Promise.race([gone.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())])
  machine.kill("SIGTERM")
  if (await within(20_000)) return
  const init = pid1()
  if (init !== undefined) signal(init, "SIGKILL")
  machine.kill("SIGKILL")
  await within(5_000)
}

const removedDir = (dir: string): true | undefined => {
  try {
    rmdirSync(dir)
    return true
  } catch {
    return existsSync(dir) ? undefined : true
  }
}

/** Deepest first; a cgroup whose last process is still leaving refuses rmdir for a moment. */
const removeCgroups = async (cgroups: ReadonlyArray<string>): Promise<void> => {
  for (const cgroup of cgroups.filter((dir) => existsSync(dir))) {
    const dirs = [cgroup, ...readdirSync(cgroup, { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name))]
    for (const dir of dirs.sort((a, b) => b.length - a.length)) {
      await eventually(`cgroup ${dir} to be empty and removed`, () => removedDir(dir), { timeoutMs: 5_000, intervalMs: 50 })
    }
  }
}
