import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

/**
 * No module of the product imports itself through others, and no folder reaches itself through
 * others, type-only imports included: a circle means one of its files holds something that belongs
 * elsewhere. dependency-cruiser does the
 * looking (.dependency-cruiser.cjs); its swc parser keeps `import type` lines, which TypeScript 7
 * has no API yet for dependency-cruiser to read.
 */
const repo = join(import.meta.dirname, "../..")
const depcruise = join(repo, "node_modules/.bin/depcruise")

const cruise = (...paths: ReadonlyArray<string>) =>
  spawnSync(depcruise, [...paths, "--validate", ".dependency-cruiser.cjs", "--output-type", "err"], { cwd: repo, encoding: "utf8", timeout: 60_000 })

// Inside the repository, so that the config's tsconfig.json is found as for the product.
const fixture = join(repo, "test-artifacts/import-circle-fixture")
afterAll(() => rmSync(fixture, { recursive: true, force: true }))

describe("import circles", () => {
  it("the check finds a circle made only of type imports", () => {
    mkdirSync(fixture, { recursive: true })
    writeFileSync(join(fixture, "a.ts"), 'import type { B } from "./b.ts"\nexport interface A { readonly b?: B }\n')
    writeFileSync(join(fixture, "b.ts"), 'import type { A } from "./a.ts"\nexport interface B { readonly a?: A }\n')
    const result = cruise("test-artifacts/import-circle-fixture")
    expect(result.status).not.toBe(0)
    expect(result.stdout).toContain("no-circular")
    expect(result.stdout).toMatch(/a\.ts/u)
  })

  it("the check finds two folders that import each other, though no file imports itself", () => {
    mkdirSync(join(fixture, "lower"), { recursive: true })
    mkdirSync(join(fixture, "upper"), { recursive: true })
    writeFileSync(join(fixture, "lower/a.ts"), 'import type { C } from "../upper/c.ts"\nexport interface A { readonly c?: C }\n')
    writeFileSync(join(fixture, "lower/b.ts"), "export interface B { readonly n: number }\n")
    writeFileSync(join(fixture, "upper/c.ts"), 'import type { B } from "../lower/b.ts"\nexport interface C { readonly b?: B }\n')
    const result = cruise("test-artifacts/import-circle-fixture/lower", "test-artifacts/import-circle-fixture/upper")
    expect(result.stdout).not.toContain("no-circular:")
    expect(result.stdout).toContain("no-folder-circles")
    expect(result.status).not.toBe(0)
  })

  // The simulator is cruised with the product: src/ loads it (sim, demo), so a circle through it
  // would be a circle of the product's.
  it("there is none in the product (src/, adapters/) nor in the simulator (simulator/), between files or folders", () => {
    const result = cruise("src", "adapters", "simulator")
    expect(result.stdout, result.stdout).toMatch(/no dependency violations found \((\d{3,}) modules/u)
    expect(result.status, result.stdout).toBe(0)
  })
})
