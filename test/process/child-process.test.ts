import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Logger } from "effect"
import { TestClock } from "effect/testing"
import { existsSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach } from "vitest"
import { runChecked, runChild, spawnChild } from "../../src/process/child-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { allGone, isRunning, wrapperPids, wrapperScript } from "./child-support.ts"

const gone = (what: string, pids: ReadonlyArray<number>) => Effect.promise(() => allGone(what, pids))

let dir: string
beforeEach(() => {
  dir = tempDir("child-process")
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const wrapper = (body = "") => wrapperScript(dir, body)
const pidsOf = () => Effect.promise(() => wrapperPids(dir))

describe("runChild and spawnChild", () => {
  it.live("interruption of the calling fiber ends the child and its process group", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(runChild(wrapper(), [], { timeoutMs: 60_000 }))
      const pids = yield* pidsOf()
      assert.isTrue(pids.every(isRunning))
      yield* Fiber.interrupt(fiber)
      yield* gone("the wrapper and its sleep", pids)
    }))

  it.live("closing a spawned child's scope ends it; one that ignores SIGTERM is killed after the grace, with a warning", () =>
    Effect.gen(function*() {
      const logs: Array<string> = []
      const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
      const program = wrapper("trap '' TERM")
      const startedAt = Date.now()
      const pids = yield* Effect.scoped(Effect.gen(function*() {
        const child = yield* spawnChild(program, [], { stopGraceMs: 300 })
        const pids = yield* pidsOf()
        assert.strictEqual(child.pid, pids[0])
        return pids
      })).pipe(Effect.provide(Logger.layer([collector])))
      assert.isAtLeast(Date.now() - startedAt, 300)
      yield* gone("the wrapper that ignored SIGTERM", pids)
      assert.deepStrictEqual(logs, [`${program} ignored SIGTERM for 300 ms; killing it`])
    }))

  it.effect("a run past its timeout (on the Effect clock) fails with ChildTimedOut and its child is gone", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(Effect.flip(runChild(wrapper("echo 'still starting' >&2"), [], { timeoutMs: 60_000 })))
      const pids = yield* pidsOf()
      yield* TestClock.adjust(60_000)
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "ChildTimedOut")
      assert.include(error.message, "did not finish within 60000 ms and was stopped; it last said: still starting")
      yield* gone("the timed-out child", pids)
    }))

  it.live("a missing program is a ChildStartError that names it, and where it was looked for", () =>
    Effect.gen(function*() {
      const bare = yield* Effect.flip(runChild("no-such-tool-here", ["--version"], { timeoutMs: 5_000, env: { PATH: "/nowhere:/usr/bin" } }))
      assert.deepInclude(bare, { _tag: "ChildStartError", program: "no-such-tool-here", reason: "not-found" })
      assert.strictEqual(bare.message, "no-such-tool-here not found on the PATH (/nowhere:/usr/bin)")
      const path = join(dir, "missing")
      const absolute = yield* Effect.flip(runChild(path, [], { timeoutMs: 5_000 }))
      assert.strictEqual(absolute.message, `${path} not found`)
      writeFileSync(join(dir, "plain"), "not a program")
      const plain = yield* Effect.flip(runChild(join(dir, "plain"), [], { timeoutMs: 5_000 }))
      assert.deepInclude(plain, { reason: "permission-denied", message: `${join(dir, "plain")} cannot be run: permission denied (is it executable?)` })
    }))

  it.live("says how a child ended: its code, its signal; runChecked fails with stderr's last line", () =>
    Effect.gen(function*() {
      const ran = yield* runChild("sh", ["-c", "echo out; echo first >&2; echo last >&2; exit 3"], { timeoutMs: 5_000 })
      assert.deepStrictEqual(ran, { exitCode: 3, signal: null, stdout: "out\n", stderr: "first\nlast\n" })
      const killed = yield* runChild("sh", ["-c", "kill -KILL $$"], { timeoutMs: 5_000 })
      assert.deepInclude(killed, { exitCode: null, signal: "SIGKILL" })
      const failed = yield* Effect.flip(runChecked("sh", ["-c", "echo first >&2; echo 'the real reason' >&2; exit 2"], { timeoutMs: 5_000 }))
      assert.deepInclude(failed, { _tag: "ChildFailed", exitCode: 2, message: "sh exited with code 2: the real reason" })
    }))

  it.live("arguments go to the program as they are, never through a shell; input goes to its stdin", () =>
    Effect.gen(function*() {
      const args = ["a; touch injected", "$(touch injected)", "`touch injected`", "b c"]
      const ran = yield* runChild("printf", ["%s\\n", ...args], { timeoutMs: 5_000 })
      assert.strictEqual(ran.stdout, args.map((arg) => `${arg}\n`).join(""))
      assert.isFalse(existsSync("injected"))
      const fed = yield* runChild("cat", [], { timeoutMs: 5_000, input: "one\ntwo\n" })
      assert.strictEqual(fed.stdout, "one\ntwo\n")
      const none = yield* runChild("cat", [], { timeoutMs: 5_000 })
      assert.strictEqual(none.stdout, "")
    }))

  it.live("a child gets PATH, the locale and the allocator's settings but none of our other variables unless asked, and what its place sets", () =>
    Effect.gen(function*() {
      const arenas = process.env["MALLOC_ARENA_MAX"]
      process.env["MALLOC_ARENA_MAX"] = "2"
      yield* Effect.addFinalizer(() => Effect.sync(() => arenas === undefined ? delete process.env["MALLOC_ARENA_MAX"] : void (process.env["MALLOC_ARENA_MAX"] = arenas)))
      process.env["SCOREBRIDGE_CHILD_TEST_SECRET"] = "hunter2"
      const variables = (inherit?: "all") =>
        runChild("env", [], { timeoutMs: 5_000, env: { SET_BY_PLACE: "yes" }, ...(inherit === undefined ? {} : { inherit }) }).pipe(
          Effect.map((ran) => Object.fromEntries(ran.stdout.trim().split("\n").map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)])))
        )
      const tool = yield* variables().pipe(Effect.ensuring(Effect.sync(() => delete process.env["SCOREBRIDGE_CHILD_TEST_SECRET"])))
      assert.strictEqual(tool["PATH"], process.env["PATH"])
      assert.strictEqual(tool["SET_BY_PLACE"], "yes")
      assert.strictEqual(tool["MALLOC_ARENA_MAX"], "2")
      assert.isUndefined(tool["SCOREBRIDGE_CHILD_TEST_SECRET"])
      process.env["SCOREBRIDGE_CHILD_TEST_SECRET"] = "hunter2"
      const all = yield* variables("all").pipe(Effect.ensuring(Effect.sync(() => delete process.env["SCOREBRIDGE_CHILD_TEST_SECRET"])))
      assert.strictEqual(all["SCOREBRIDGE_CHILD_TEST_SECRET"], "hunter2")
    }))

  it.live("keeps the last outputCap characters of a long output", () =>
    Effect.gen(function*() {
      const ran = yield* runChild("sh", ["-c", "i=0; while [ $i -lt 2000 ]; do echo line-$i; i=$((i+1)); done"], { timeoutMs: 5_000, outputCap: 20 })
      assert.strictEqual(ran.stdout, "line-1998\nline-1999\n")
    }))
})
