import { describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { installPackage, processStatus, unitExposure, unitProperty } from "../support/container-package.ts"
import { builtPackage, packageBuildTimeoutMs } from "../support/debian-packages.ts"
import { systemdContainerPerFile } from "../support/systemd-container.ts"

/**
 * The bridge's unit under a real systemd 252 as PID 1 (a throw-away container, see
 * test/support/systemd-container.ts): the amd64 package installed with apt, its token set with
 * scorebridge-set-token, and the running daemon's identity and privileges read from inside, as
 * the kernel sees them, not as the unit file claims them (test/systemd/unit.test.ts reads the file).
 */

const unit = "scorebridge.service"

const machine = systemdContainerPerFile("daemon-unit", async (container) => {
  await installPackage(container, await builtPackage("amd64"))
  const set = await container.run(["scorebridge-set-token"], { input: "tok-container-5e21\n" })
  expect(set.code, `scorebridge-set-token: ${set.stdout}${set.stderr}`).toBe(0)
}, { hookTimeoutMs: packageBuildTimeoutMs })

const mainPid = async (container: ReturnType<typeof machine.use>): Promise<number> =>
  eventually(`${unit} to be active with a main process`, async () => {
    const [state, pid] = [await unitProperty(container, unit, "ActiveState"), Number(await unitProperty(container, unit, "MainPID"))]
    return state === "active" && pid > 0 ? pid : undefined
  }, { timeoutMs: 20_000, intervalMs: 200 })

describe("scorebridge.service under systemd as PID 1 (package installed with apt)", () => {
  it("runs the daemon as a dynamic user, not root", async (ctx) => {
    const container = machine.use(ctx)
    const status = await processStatus(container, await mainPid(container))
    const uid = Number(status["Uid"]!.split(/\s+/)[0])
    expect(uid).not.toBe(0)
    const user = await container.run(["getent", "passwd", String(uid)])
    // DynamicUser=yes: the name exists only while the unit runs, from systemd's NSS module.
    expect(user.stdout).toMatch(/^scorebridge:x:\d+:\d+:Dynamic User:/)
  })

  it("holds no capability and cannot gain one (CapEff, CapBnd 0, NoNewPrivs 1, a seccomp filter)", async (ctx) => {
    const container = machine.use(ctx)
    const status = await processStatus(container, await mainPid(container))
    expect({ CapEff: status["CapEff"], CapPrm: status["CapPrm"], CapBnd: status["CapBnd"], NoNewPrivs: status["NoNewPrivs"], Seccomp: status["Seccomp"] }).toEqual({
      CapEff: "0000000000000000",
      CapPrm: "0000000000000000",
      CapBnd: "0000000000000000",
      NoNewPrivs: "1",
      Seccomp: "2"
    })
  })

  it("has an exposure of at most 2.0 as the running systemd loads it", async (ctx) => {
    const container = machine.use(ctx)
    const exposure = await unitExposure(container, unit)
    console.log(`systemd-analyze security ${unit} inside the container: ${exposure}`)
    expect(exposure).toBeLessThanOrEqual(2.0)
  })

  it("serves its status page and reloads on systemctl reload without a restart", async (ctx) => {
    const container = machine.use(ctx)
    const before = await mainPid(container)
    // The package's example config: its status port inside the container's own network, not the host's.
    const status = await container.run(["curl", "-fsS", "--max-time", "5", "http://127.0.0.1:8370/status.json"])
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toHaveProperty("places")
    const reload = await container.run(["systemctl", "reload", unit])
    expect(reload.code, reload.stderr).toBe(0)
    await eventually("the daemon to log its reload", async () => {
      const journal = await container.run(["journalctl", "-u", unit, "-o", "cat", "--no-pager"])
      return journal.stdout.includes("reloaded /etc/scorebridge/config.yaml") ? true : undefined
    }, { timeoutMs: 15_000, intervalMs: 200 })
    expect(await mainPid(container)).toBe(before)
  })
})
