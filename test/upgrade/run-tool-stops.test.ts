import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach } from "vitest"
import { runTool } from "../../src/upgrade/run-tool.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { allGone, isRunning, wrapperPids, wrapperScript } from "../process/child-support.ts"

/**
 * dpkg runs maintainer scripts, which start children of their own. A guard that is stopped (its
 * window closed, the process shutting down) or a tool that runs past its time must not leave any
 * of them running: the tool's whole process group goes.
 */
let dir: string
beforeEach(() => {
  dir = tempDir("run-tool")
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe("runTool", () => {
  it.live("interrupted, it ends the tool and what the tool started", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(runTool(wrapperScript(dir), [], { timeoutMs: 60_000 }))
      const pids = yield* Effect.promise(() => wrapperPids(dir))
      assert.isTrue(pids.every(isRunning))
      yield* Fiber.interrupt(fiber)
      yield* Effect.promise(() => allGone("the tool and its child", pids))
    }))

  it.live("past its timeout, the tool and its children are gone and the answer says so", () =>
    Effect.gen(function*() {
      const ran = yield* runTool(wrapperScript(dir, "echo 'waiting for the lock' >&2"), [], { timeoutMs: 500 })
      assert.strictEqual(ran.status, null)
      assert.include(ran.stderr, "waiting for the lock")
      assert.include(ran.stderr, "did not finish within 500 ms")
      yield* Effect.promise(() => wrapperPids(dir).then((pids) => allGone("the tool and its child", pids)))
    }))

  it.live("feeds its input, passes our environment with env over it, and names a missing tool", () =>
    Effect.gen(function*() {
      process.env["SCOREBRIDGE_RUN_TOOL_TEST"] = "inherited"
      const ran = yield* runTool("sh", ["-c", "cat; echo \"$SCOREBRIDGE_RUN_TOOL_TEST $SCOREBRIDGE_ROLLBACK\""], { timeoutMs: 5_000, input: "fed\n", env: { SCOREBRIDGE_ROLLBACK: "1" } }).pipe(
        Effect.ensuring(Effect.sync(() => delete process.env["SCOREBRIDGE_RUN_TOOL_TEST"]))
      )
      assert.deepStrictEqual(ran, { status: 0, stdout: "fed\ninherited 1\n", stderr: "" })
      const missing = yield* runTool(join(dir, "dpkg"), [], { timeoutMs: 5_000 })
      assert.deepStrictEqual(missing, { status: null, stdout: "", stderr: `${join(dir, "dpkg")} not found` })
    }))
})
