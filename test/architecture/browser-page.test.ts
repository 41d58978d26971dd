import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

/**
 * The pages' scripts (src/setup/page/browser/, src/status/browser/) are typechecked on their own,
 * with the DOM's types (the root tsconfig leaves them out): they read the routes' answers and
 * /status.json through the types of the modules that make them, so a changed answer fails here. And it takes nothing but types from the
 * product: no Node module, no Effect in the browser (.dependency-cruiser.cjs).
 */
const repo = join(import.meta.dirname, "../..")
const tsc = join(repo, "node_modules/.bin/tsc")
const depcruise = join(repo, "node_modules/.bin/depcruise")
const fixture = join(repo, "test-artifacts/browser-page-fixture")
afterAll(() => rmSync(fixture, { recursive: true, force: true }))

const typecheck = (folder: string, ...args: ReadonlyArray<string>) =>
  spawnSync(tsc, ["--noEmit", "-p", folder, ...args], { cwd: repo, encoding: "utf8", timeout: 120_000 })

const pages = [
  { folder: "src/setup/page/browser", shapes: ["src/setup/config/config-routes.ts", "src/setup/steps/listen-routes.ts", "src/setup/buttons/button-routes.ts", "src/setup/steps/daemon-status.ts"] },
  { folder: "src/status/browser", shapes: ["src/status/json/status-json.ts", "src/status/json/place-json.ts"] }
]

describe("the pages' browser modules", () => {
  it.each(pages)("$folder typechecks with the DOM's types, reading the answers' shapes from the modules that make them", ({ folder, shapes }) => {
    const checked = typecheck(folder)
    expect(checked.stdout + checked.stderr).toBe("")
    expect(checked.status).toBe(0)
    const files = typecheck(folder, "--listFilesOnly").stdout.split("\n").map((file) => file.replace(`${repo}/`, ""))
    for (const shape of shapes) expect(files).toContain(shape)
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
