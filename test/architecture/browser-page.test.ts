import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

/**
 * The setup page's script (src/setup/page/browser/) is typechecked on its own, with the DOM's
 * types (the root tsconfig leaves it out): it reads the routes' answers through their own
 * exported types, so a changed answer fails here. And it takes nothing but types from the
 * product: no Node module, no Effect in the browser (.dependency-cruiser.cjs).
 */
const repo = join(import.meta.dirname, "../..")
const tsc = join(repo, "node_modules/.bin/tsc")
const depcruise = join(repo, "node_modules/.bin/depcruise")
const fixture = join(repo, "test-artifacts/browser-page-fixture")
afterAll(() => rmSync(fixture, { recursive: true, force: true }))

const typecheck = (...args: ReadonlyArray<string>) =>
  spawnSync(tsc, ["--noEmit", "-p", "src/setup/page/browser", ...args], { cwd: repo, encoding: "utf8", timeout: 120_000 })

describe("the setup page's browser modules", () => {
  it("typecheck with the DOM's types, reading the routes' own modules for the answers' shapes", () => {
    const checked = typecheck()
    expect(checked.stdout + checked.stderr).toBe("")
    expect(checked.status).toBe(0)
    const files = typecheck("--listFilesOnly").stdout.split("\n").map((file) => file.replace(`${repo}/`, ""))
    for (const route of ["src/setup/config/config-routes.ts", "src/setup/steps/listen-routes.ts", "src/setup/buttons/button-routes.ts", "src/setup/steps/daemon-status.ts"]) {
      expect(files).toContain(route)
    }
  })

  it("the dependency rule refuses a value from the product or a package, and lets types and the clock's style through", () => {
    mkdirSync(fixture, { recursive: true })
    writeFileSync(join(fixture, "page.ts"), [
      "import type { ConfigView } from \"../../src/setup/config/config-view.ts\"",
      "import { clockLocale } from \"../../src/timeline/time-ticks.ts\"",
      "import { configView } from \"../../src/setup/config/config-view.ts\"",
      "import { Effect } from \"effect\"",
      "export const x: ConfigView | string = clockLocale + String(Effect) + String(configView)",
      ""
    ].join("\n"))
    // The project's rule, aimed at the fixture instead of src/setup/page/browser/.
    const config = createRequire(import.meta.url)(join(repo, ".dependency-cruiser.cjs")) as {
      forbidden: Array<{ name: string; from: { path: string } }>
    }
    const rule = config.forbidden.find((r) => r.name === "browser-page-takes-types")!
    const aimed = { ...config, forbidden: [{ ...rule, from: { path: "^test-artifacts/browser-page-fixture/" } }] }
    writeFileSync(join(fixture, "cruise.cjs"), `module.exports = ${JSON.stringify(aimed)}\n`)
    const result = spawnSync(depcruise, ["test-artifacts/browser-page-fixture/page.ts", "--config", join(fixture, "cruise.cjs"), "--output-type", "err"], {
      cwd: repo, encoding: "utf8", timeout: 60_000
    })
    const refused = result.stdout.split("\n").filter((line) => line.includes("browser-page-takes-types")).map((line) => line.replace(/^.*→ /u, "").trim())
    expect(refused.sort()).toEqual(["effect", "src/setup/config/config-view.ts"])
    expect(result.status).not.toBe(0)
  })
})
