import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * systemd/install.sh (a checkout installed without the package) puts the setup page's units in
 * place as the package does: scorebridge-setup.service, which `sudo scorebridge setup` starts,
 * and the reload and token path units, enabled. Against a temporary root: no systemctl, no npm.
 */
const script = join(import.meta.dirname, "../../systemd/install.sh")
const systemdDir = join(import.meta.dirname, "../../systemd")
const setupUnits = ["scorebridge-setup.service", "scorebridge-reload.path", "scorebridge-reload.service", "scorebridge-token.path", "scorebridge-token.service"]

let root: string
beforeEach(() => {
  root = tempDir("install-setup")
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const install = (args: ReadonlyArray<string>, input = "") =>
  spawnSync("bash", [script, "--root", root, "--skip-npm", ...args], { encoding: "utf8", input, timeout: 30_000 })
const at = (path: string) => join(root, path)

describe("systemd/install.sh and the setup page's units", () => {
  it("installs them beside the bridge's unit, as the repository has them, and enables the path units", () => {
    const result = install([], "venue-token-1\n")
    expect(result.status, result.stderr).toBe(0)
    for (const unit of setupUnits) expect(readFileSync(at(`etc/systemd/system/${unit}`), "utf8"), unit).toBe(readFileSync(join(systemdDir, unit), "utf8"))
    expect(result.stdout).toContain("(--root: skipped) systemctl enable scorebridge.service scorebridge-reload.path scorebridge-token.path")
    expect(result.stdout).toContain("(--root: skipped) systemctl restart scorebridge-reload.path scorebridge-token.path")
  })

  it("--uninstall removes them with the bridge's unit", () => {
    expect(install([], "venue-token-1\n").status).toBe(0)
    const removed = install(["--uninstall"])
    expect(removed.status, removed.stderr).toBe(0)
    for (const unit of setupUnits) expect(existsSync(at(`etc/systemd/system/${unit}`)), unit).toBe(false)
  })
})
