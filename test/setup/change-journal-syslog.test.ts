import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { journalPath, recordChange } from "../../src/setup/config/change-journal.ts"
import { setupEnvironment } from "../../src/setup/setup-environment.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { allGone } from "../process/child-support.ts"

/**
 * Each change also goes to syslog through `logger`, played here by a stand-in first on the PATH:
 * it gets the line as one argument after `--` (a line is never read as an option), none of the
 * setup server's other variables, and one that hangs is stopped after 2 s, the save going on.
 */
let dir: string
const saved = { PATH: process.env["PATH"], syslog: process.env["SCOREBRIDGE_SETUP_SYSLOG"], token: process.env["SCOREBRIDGE_TOKEN"] }
beforeEach(() => {
  dir = tempDir("change-journal")
  // Other setup tests in this worker turn syslog off (config-support.ts): these are the ones that want it.
  delete process.env["SCOREBRIDGE_SETUP_SYSLOG"]
  process.env["PATH"] = `${dir}:${saved.PATH ?? "/usr/bin:/bin"}`
  process.env["SCOREBRIDGE_TOKEN"] = "secret-token-value"
})
afterEach(() => {
  for (const [name, value] of [["PATH", saved.PATH], ["SCOREBRIDGE_SETUP_SYSLOG", saved.syslog], ["SCOREBRIDGE_TOKEN", saved.token]] as const) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  rmSync(dir, { recursive: true, force: true })
})

const standInLogger = (body: string) => {
  const path = join(dir, "logger")
  writeFileSync(path, `#!/bin/sh\necho $$ > "${dir}/pid"\nfor a in "$@"; do echo "[$a]"; done > "${dir}/args"\nenv > "${dir}/env"\n${body}\n`)
  chmodSync(path, 0o755)
}
const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : "")
const environment = () => setupEnvironment(join(dir, "config.yaml"), { _tag: "none" })
const entry = { session: "s1", change: "place court-1 edited", places: ["court-1"], keys: ["places[court-1].name"] }

describe("the change journal's syslog line", () => {
  it("goes to logger as one argument under the setup tag, with a tool's environment only", async () => {
    standInLogger("exit 0")
    const recorded = await recordChange(environment(), entry, new Date("2026-12-02T10:00:00Z"))
    const line = JSON.stringify(recorded)
    expect(read("args")).toBe(`[-t]\n[scorebridge-setup]\n[--]\n[${line}]\n`)
    expect(read("env")).not.toContain("secret-token-value")
    expect(readFileSync(journalPath(environment()), "utf8")).toBe(`${line}\n`)
  })

  it("a logger that hangs is stopped after 2 s and the change is still recorded", async () => {
    standInLogger("exec sleep 60")
    const startedAt = Date.now()
    await recordChange(environment(), entry)
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_900)
    await allGone("the hung logger", [Number(read("pid"))])
    expect(readFileSync(journalPath(environment()), "utf8")).toContain("place court-1 edited")
  })
})
