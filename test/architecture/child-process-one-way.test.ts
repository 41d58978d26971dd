import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * The product runs programs one way (src/process: no shell, a process group of its own ended with
 * the calling fiber, timeouts, a tool's environment). A module that reaches for node:child_process
 * or effect/process itself skips all of that.
 */
const repo = join(import.meta.dirname, "../..")

/** Still spawning on their own, each to move to src/process (runChild / runChecked) by its owner. */
const notYet = new Set<string>()

const productSources = () =>
  ["src", "adapters"].flatMap((dir) =>
    readdirSync(join(repo, dir), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts"))
      .map((name) => `${dir}/${name}`)
  )

const spawnsItself = (text: string) =>
  /from\s+["'](?:node:)?child_process["']|getBuiltinModule\(\s*["'](?:node:)?child_process["']\s*\)|from\s+["']effect\/process|@effect\/platform-node\/NodeChildProcessSpawner/u.test(text)

describe("one way to run a child process", () => {
  it("only src/process spawns programs", () => {
    const found = productSources().filter((file) => !file.startsWith("src/process/") && !notYet.has(file) && spawnsItself(readFileSync(join(repo, file), "utf8")))
    expect(found).toEqual([])
  })
})
