import { spawnSync } from "node:child_process"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The unit as systemd itself judges it, offline (no PID 1 needed): its exposure score and
 * `systemd-analyze verify`. Skipped only on a developer machine without systemd; CI must run it.
 */
const unitFile = join(import.meta.dirname, "../../systemd/scorebridge.service")
const repoBin = join(import.meta.dirname, "../../bin/scorebridge")
const haveSystemd = spawnSync("systemd-analyze", ["--version"]).status === 0
if (!haveSystemd && process.env["CI"] !== undefined) throw new Error("systemd-analyze is missing in CI: install the systemd package")
const describeSystemd = haveSystemd ? describe : describe.skip

const analyze = (args: ReadonlyArray<string>) => spawnSync("systemd-analyze", args, { encoding: "utf8", timeout: 30_000 })

describeSystemd("systemd/scorebridge.service (systemd-analyze, offline)", () => {
  const dir = tempDir("unit")
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("has an overall exposure of at most 2.0", () => {
    const result = analyze(["security", "--offline=yes", "--no-pager", unitFile])
    const line = /Overall exposure level for scorebridge\.service: (\d+\.\d+)/.exec(result.stdout)
    expect(line, `systemd-analyze security output:\n${result.stdout}${result.stderr}`).not.toBeNull()
    const exposure = Number(line![1])
    console.log(`systemd-analyze security exposure: ${exposure}`)
    expect(exposure).toBeLessThanOrEqual(2.0)
  })

  it("passes systemd-analyze verify", () => {
    // verify checks that ExecStart= exists, and /opt/scorebridge is only there once installed:
    // verify a copy (same name, so unit-name checks still apply) that starts the repo's own CLI.
    const unit = readFileSync(unitFile, "utf8")
    expect(unit).toContain("ExecStart=/opt/scorebridge/bin/scorebridge run --config /etc/scorebridge/config.yaml")
    const copy = join(dir, "scorebridge.service")
    writeFileSync(copy, unit.replaceAll("/opt/scorebridge/bin/scorebridge", repoBin))
    const result = analyze(["verify", "--no-pager", copy])
    expect(`${result.stdout}${result.stderr}`).toBe("")
    expect(result.status).toBe(0)
  })

  it("keeps the settings the daemon depends on", () => {
    const unit = readFileSync(unitFile, "utf8")
    const settings = unit.split("\n").filter((l) => /^[A-Z]\w*=/.test(l))
    for (const expected of [
      "Type=notify",
      "NotifyAccess=all",
      "WatchdogSec=30s",
      "ExecReload=/bin/kill -HUP $MAINPID",
      "RestartPreventExitStatus=78",
      "DynamicUser=yes",
      "StateDirectory=scorebridge",
      "ConfigurationDirectory=scorebridge",
      "LoadCredential=token:/etc/scorebridge/credentials/token",
      "SupplementaryGroups=dialout input",
      "DevicePolicy=closed",
      "DeviceAllow=char-ttyUSB rw",
      "DeviceAllow=char-input r",
      "UMask=0077"
    ]) expect(settings).toContain(expected)
    // Each would break the daemon on real hardware: serial adapters hidden, V8 aborting.
    expect(settings.filter((l) => /^(PrivateDevices|MemoryDenyWriteExecute)=yes/.test(l))).toEqual([])
  })
})

describeSystemd("systemd/scorebridge-prometheus-agent.service (systemd-analyze, offline)", () => {
  const agentUnit = join(import.meta.dirname, "../../systemd/scorebridge-prometheus-agent.service")

  it("passes systemd-analyze verify, and is at least as closed as the bridge's own unit", () => {
    const verify = analyze(["verify", "--no-pager", agentUnit])
    expect(`${verify.stdout}${verify.stderr}`).toBe("")
    expect(verify.status).toBe(0)
    const security = analyze(["security", "--offline=yes", "--no-pager", agentUnit])
    const line = /Overall exposure level for scorebridge-prometheus-agent\.service: (\d+\.\d+)/.exec(security.stdout)
    expect(line, `systemd-analyze security output:\n${security.stdout}${security.stderr}`).not.toBeNull()
    console.log(`agent unit exposure: ${line![1]}`)
    expect(Number(line![1])).toBeLessThanOrEqual(2.0)
  })

  it("runs Debian's prometheus in agent mode on loopback, with the config and credential the install writes", () => {
    const unit = readFileSync(agentUnit, "utf8")
    expect(unit).toContain("--enable-feature=agent")
    expect(unit).toContain("--config.file=/etc/scorebridge/prometheus-agent.yml")
    expect(unit).toContain("--web.listen-address=127.0.0.1:9091")
    expect(unit).toContain("LoadCredential=remote-write-password:/etc/scorebridge/credentials/remote-write-password")
    const config = readFileSync(join(import.meta.dirname, "../../deploy/prometheus/agent.yml"), "utf8")
    expect(config).toContain("password_file: /run/credentials/scorebridge-prometheus-agent.service/remote-write-password")
  })
})
