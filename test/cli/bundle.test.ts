import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "../..")
const bundle = join(root, "dist/scorebridge.mjs")
const node = join(root, "node_modules/.bin/node")

// npm ci builds the bundle (the prepare script); a working tree may not have run it yet.
const built = existsSync(bundle)
if (!built && process.env["CI"]) throw new Error(`${bundle} is missing: npm ci should have built it (npm run build)`)

describe.skipIf(!built)("the bundled CLI (dist/scorebridge.mjs, what an installed bridge runs)", () => {
  it("lists every command", () => {
    const result = spawnSync(node, [bundle, "--help"], { encoding: "utf8" })
    expect(result.status).toBe(0)
    for (const command of ["run", "check", "doctor", "sniff", "capture", "replay", "overlay-preview", "outbox", "demo", "sim"]) {
      expect(result.stdout).toMatch(new RegExp(`\\n  ${command} `))
    }
  })

  it("validates a shipped example like the sources do", () => {
    const result = spawnSync(node, [bundle, "check", "--config", join(root, "config/demo.yaml")], {
      encoding: "utf8",
      env: { ...process.env, SCOREBRIDGE_TOKEN: "demo-token" }
    })
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
  })

  it("runs the demo end to end: serial-free pipeline, SQLite outbox, HTTP, status page", () => {
    const result = spawnSync(node, [bundle, "demo", "--points", "2", "--point-every-ms", "600"], { encoding: "utf8", timeout: 30_000 })
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("The simulator accepted 3 of 3 score entries")
  })
})
