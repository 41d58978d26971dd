import { spawnSync } from "node:child_process"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runScorebridge, scorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * systemd/scorebridge-upgrade-guard.service as systemd judges it offline, and what it hands the
 * command: the variables the package's postinst writes into guard.env (deploy/debian/postinst) and
 * flags the command knows. The watch itself has its tests in test/upgrade/.
 */
const unitFile = join(import.meta.dirname, "../../systemd/scorebridge-upgrade-guard.service")
const postinst = join(import.meta.dirname, "../../deploy/debian/postinst")
const unit = readFileSync(unitFile, "utf8")
const haveSystemd = spawnSync("systemd-analyze", ["--version"]).status === 0
if (!haveSystemd && process.env["CI"] !== undefined) throw new Error("systemd-analyze is missing in CI: install the systemd package")

const setting = (name: string) => unit.split("\n").filter((line) => line.startsWith(`${name}=`)).map((line) => line.slice(name.length + 1))

describe("systemd/scorebridge-upgrade-guard.service", () => {
  const dir = tempDir("guard-unit")
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.skipIf(!haveSystemd)("passes systemd-analyze verify", () => {
    const env = join(dir, "guard.env")
    writeFileSync(env, "SCOREBRIDGE_UPGRADE_FROM=0.1.0\nSCOREBRIDGE_UPGRADE_TO=0.2.0\n")
    // verify checks that ExecStart= exists: the copy starts the repo's own CLI.
    const copy = join(dir, "scorebridge-upgrade-guard.service")
    writeFileSync(copy, unit.replaceAll("/usr/bin/scorebridge", scorebridge).replaceAll("/var/lib/scorebridge-package/guard.env", env))
    const result = spawnSync("systemd-analyze", ["verify", "--no-pager", copy], { encoding: "utf8", timeout: 30_000 })
    expect(`${result.stdout}${result.stderr}`).toBe("")
    expect(result.status).toBe(0)
  })

  it("runs apart from apt (Type=exec), only when started (no [Install]), on the versions postinst writes", () => {
    expect(setting("Type")).toEqual(["exec"])
    expect(unit).not.toContain("[Install]")
    expect(setting("EnvironmentFile")).toEqual(["/var/lib/scorebridge-package/guard.env"])
    const [exec] = setting("ExecStart")
    expect(exec).toBe("/usr/bin/scorebridge upgrade-guard --from ${SCOREBRIDGE_UPGRADE_FROM} --to ${SCOREBRIDGE_UPGRADE_TO} --config /etc/scorebridge/config.yaml")
    const script = readFileSync(postinst, "utf8")
    for (const variable of exec!.matchAll(/\$\{(\w+)\}/gu)) expect(script, variable[1]).toContain(`${variable[1]}=`)
    expect(script).toContain("restart scorebridge-upgrade-guard.service")
  })

  it("hands the command only flags it knows", async () => {
    const help = await runScorebridge("upgrade-guard", ["--help"])
    expect(help.code, help.stderr).toBe(0)
    for (const [flag] of setting("ExecStart")[0]!.matchAll(/--[a-z-]+/gu)) expect(help.stdout, flag).toContain(flag)
  })
})
