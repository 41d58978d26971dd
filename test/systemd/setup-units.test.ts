import { spawnSync } from "node:child_process"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The setup page's units as systemd judges them, offline (no PID 1): scorebridge-setup.service
 * (the page as user scorebridge-setup) and the two fixed privileged steps a save may set off,
 * scorebridge-reload.path/.service (config) and scorebridge-token.path/.service (token).
 * test/systemd/setup-unit-container.test.ts checks the same units loaded by a real systemd.
 */
const systemdDir = join(import.meta.dirname, "../../systemd")
const repoBin = join(import.meta.dirname, "../../bin/scorebridge")
const haveSystemd = spawnSync("systemd-analyze", ["--version"]).status === 0
if (!haveSystemd && process.env["CI"] !== undefined) throw new Error("systemd-analyze is missing in CI: install the systemd package")
const describeSystemd = haveSystemd ? describe : describe.skip

const analyze = (args: ReadonlyArray<string>) => spawnSync("systemd-analyze", args, { encoding: "utf8", timeout: 30_000 })
const unitText = (name: string) => readFileSync(join(systemdDir, name), "utf8")
const settings = (name: string) => unitText(name).split("\n").filter((line) => /^[A-Z]\w*=/.test(line))

const exposure = (file: string, name: string): number => {
  const result = analyze(["security", "--offline=yes", "--no-pager", file])
  const line = new RegExp(`Overall exposure level for ${name.replaceAll(".", "\\.")}: (\\d+\\.\\d+)`).exec(result.stdout)
  expect(line, `systemd-analyze security ${name}:\n${result.stdout}${result.stderr}`).not.toBeNull()
  return Number(line![1])
}

describeSystemd("the setup page's units (systemd-analyze, offline)", () => {
  const dir = tempDir("setup-units")
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("scorebridge-setup.service is exposed no more than the bridge's own unit (1.8)", () => {
    const [bridge, page] = [exposure(join(systemdDir, "scorebridge.service"), "scorebridge.service"), exposure(join(systemdDir, "scorebridge-setup.service"), "scorebridge-setup.service")]
    console.log(`systemd-analyze security (offline): scorebridge.service ${bridge}, scorebridge-setup.service ${page}`)
    expect(page).toBeLessThanOrEqual(bridge)
  })

  it("the privileged steps (reload, restart on a new token) are exposed at most 1.0", () => {
    for (const name of ["scorebridge-reload.service", "scorebridge-token.service"]) {
      const score = exposure(join(systemdDir, name), name)
      console.log(`systemd-analyze security (offline): ${name} ${score}`)
      expect(score, name).toBeLessThanOrEqual(1.0)
    }
  })

  it("all pass systemd-analyze verify (the setup unit run from this checkout's CLI)", () => {
    const copy = join(dir, "scorebridge-setup.service")
    writeFileSync(copy, unitText("scorebridge-setup.service").replaceAll("/opt/scorebridge/bin/scorebridge", repoBin))
    const files = [copy, ...["scorebridge-reload.path", "scorebridge-reload.service", "scorebridge-token.path", "scorebridge-token.service"].map((n) => join(systemdDir, n))]
    const result = analyze(["verify", "--no-pager", ...files])
    expect(`${result.stdout}${result.stderr}`).toBe("")
    expect(result.status).toBe(0)
  })

  it("the page runs unprivileged, the mode the launcher expects, with the announce directory root alone can read", () => {
    for (const expected of [
      "ExecStart=/opt/scorebridge/bin/scorebridge setup --serve-unit $SCOREBRIDGE_SETUP_OPTIONS",
      "EnvironmentFile=-/run/scorebridge-setup.env",
      "User=scorebridge-setup",
      "NoNewPrivileges=yes",
      "CapabilityBoundingSet=",
      "AmbientCapabilities=",
      "ProtectSystem=strict",
      "ReadWritePaths=/etc/scorebridge",
      "RuntimeDirectory=scorebridge-setup",
      "RuntimeDirectoryMode=0700",
      "DevicePolicy=closed",
      "Restart=no",
      "SuccessExitStatus=130"
    ]) expect(settings("scorebridge-setup.service")).toContain(expected)
    expect(settings("scorebridge-setup.service").filter((line) => line.startsWith("[Install]") || line.startsWith("WantedBy="))).toEqual([])
  })

  it("a saved config reloads the bridge; a new token restarts it (systemd copies a credential only at start)", () => {
    expect(settings("scorebridge-reload.path").filter((line) => line.startsWith("PathChanged="))).toEqual(["PathChanged=/etc/scorebridge/config.yaml"])
    expect(settings("scorebridge-reload.service")).toContain("ExecStart=/bin/systemctl reload-or-restart scorebridge.service")
    expect(settings("scorebridge-token.path").filter((line) => line.startsWith("PathChanged="))).toEqual(["PathChanged=/etc/scorebridge/credentials/token"])
    expect(settings("scorebridge-token.path")).toContain("Unit=scorebridge-token.service")
    expect(settings("scorebridge-token.service")).toContain("ExecStart=/bin/systemctl restart scorebridge.service")
  })
})
