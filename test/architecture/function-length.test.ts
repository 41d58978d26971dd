import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { longFunctions } from "../../scripts/support/function-length.ts"

/**
 * No function of the product over 60 lines unless it is a table (scripts/support/function-length.ts
 * names those): a longer one is a whole service or a whole procedure in one closure, which the next
 * change has to read in full.
 */
const repo = join(import.meta.dirname, "../..")
const fixture = join(repo, "test-artifacts/function-length-fixture")
afterAll(() => rmSync(fixture, { recursive: true, force: true }))

const productSources = () =>
  ["src", "adapters"].flatMap((dir) =>
    readdirSync(join(repo, dir), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts") && !name.includes("node_modules"))
      .map((name) => join(repo, dir, name))
  )

describe("function length", () => {
  it("finds a function of 61 lines, nested or not, and lets one of 60 be", () => {
    mkdirSync(fixture, { recursive: true })
    const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i}`).join("\n")
    const file = join(fixture, "shapes.ts")
    writeFileSync(file, [
      `export const fits = () => {\n${body(60)}\n}`,
      `export function outer() {\n  const inner = () => {\n${body(61)}\n  }\n  return inner\n}`
    ].join("\n"))
    const found = longFunctions(repo, file, 60)
    expect(found.map((f) => [f.line, f.lines])).toEqual([[61, 64], [62, 61]])
  })

  it("there is none in src/ or adapters/", () => {
    const found = productSources().flatMap((path) => longFunctions(repo, path, 60))
    expect(found.map((f) => `${f.file}:${f.line} (${f.lines} lines)`)).toEqual([])
  })
})
