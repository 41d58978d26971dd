import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { bootSystemdContainer, systemdContainerUnavailable } from "../../scripts/support/systemd-container.ts"

/**
 * The harness itself (scripts/support/systemd-container.ts): two containers at once, each with
 * its own name, identity and network; what they write never reaches the host; stopping one
 * leaves no mount, cgroup or directory behind.
 */

const unavailable = systemdContainerUnavailable()
const cgroupDirs = (name: string) => ["/sys/fs/cgroup/systemd", "/sys/fs/cgroup/unified", "/sys/fs/cgroup"].map((dir) => join(dir, name))
const mountedBelow = (text: string) => readFileSync("/proc/self/mounts", "utf8").split("\n").filter((line) => line.includes(text))

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
