import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { bootSystemdContainer, systemdContainerUnavailable } from "../../scripts/support/systemd-container.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The harness itself (scripts/support/systemd-container.ts): two containers at once, each with
 * its own name, identity and network; what they write never reaches the host; stopping one
 * leaves no mount, cgroup or directory behind.
 */

const unavailable = systemdContainerUnavailable()
const cgroupDirs = (name: string) => ["/sys/fs/cgroup/systemd", "/sys/fs/cgroup/unified", "/sys/fs/cgroup"].map((dir) => join(dir, name))
const mountedBelow = (text: string) => readFileSync("/proc/self/mounts", "utf8").split("\n").filter((line) => line.includes(text))

/** What systemdContainerUnavailable() says in a Node run as `uid` with `PATH`. */
const reasonFor = (uid: number, path: string): string => {
  const script = `import(${JSON.stringify(join(import.meta.dirname, "../../scripts/support/systemd-container.ts"))}).then((m) => console.log(String(m.systemdContainerUnavailable())))`
  const ran = spawnSync(process.execPath, ["-e", script], { uid, encoding: "utf8", env: { PATH: path }, timeout: 30_000 })
  return `${ran.stdout}${ran.stderr}`.trim()
}

describe("systemd containers: where the machine cannot boot one, the reason", () => {
  it("names root when not root, and the missing tool when systemd-nspawn is not on the PATH", (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip("plays a user and a PATH: needs root to switch user")
    expect(reasonFor(65534, "/usr/sbin:/usr/bin:/sbin:/bin")).toMatch(/^needs root/)
    const bin = tempDir("no-nspawn")
    for (const tool of ["nsenter", "mount", "groupadd"]) symlinkSync(execFileSync("/bin/sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), join(bin, tool))
    try {
      expect(reasonFor(0, bin)).toMatch(/^systemd-nspawn is not installed/)
      expect(reasonFor(0, "/usr/sbin:/usr/bin:/sbin:/bin")).toBe("undefined")
    } finally {
      rmSync(bin, { recursive: true, force: true })
    }
  })
})

describe("systemd containers (systemd-nspawn over an overlay of /)", () => {
  it("boots two at once, keeps their writes from the host, and leaves nothing behind when stopped", async (ctx) => {
    if (unavailable !== undefined) ctx.skip(unavailable)
    const [a, b] = await Promise.all([bootSystemdContainer("harness"), bootSystemdContainer("harness")])
    try {
      expect(a.name).not.toBe(b.name)
      const ids = await Promise.all([a, b].map(async (c) => (await c.run(["cat", "/etc/machine-id"])).stdout.trim()))
      expect(new Set([...ids, readFileSync("/etc/machine-id", "utf8").trim()]).size).toBe(3)
      const probe = `/etc/scorebridge-harness-probe-${a.name}`
      expect((await a.run(["sh", "-c", `echo inside > ${probe} && systemctl is-system-running`])).code).toBe(0)
      expect(existsSync(probe)).toBe(false)
      expect((await b.run(["test", "-e", probe])).code).toBe(1)
      // --private-network: loopback only.
      expect((await a.run(["ls", "/sys/class/net"])).stdout.trim()).toBe("lo")
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
    for (const c of [a, b]) {
      expect(mountedBelow(c.name)).toEqual([])
      expect(cgroupDirs(c.name).filter((dir) => existsSync(dir))).toEqual([])
      expect(existsSync(`/proc/${c.pid1}`)).toBe(false)
    }
  }, 120_000)
})
