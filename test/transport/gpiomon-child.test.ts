import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Logger, Stream } from "effect"
import { TestClock } from "effect/testing"
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach } from "vitest"
import type { LinkState } from "../../src/domain/received.ts"
import { gpiomonChunks } from "../../src/transport/gpiomon.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { allGone, wrapperPids } from "../process/child-support.ts"

/**
 * gpiomon through src/process: it runs with a tool's environment (the daemon's token variable
 * is not its business), and a `--version` that never answers is stopped, with what it started,
 * after 5 s on the Effect clock, as a disconnect that says so.
 */
let dir: string
const savedToken = process.env["SCOREBRIDGE_TOKEN"]
beforeEach(() => {
  dir = tempDir("gpiomon-child")
})
afterEach(() => {
  if (savedToken === undefined) delete process.env["SCOREBRIDGE_TOKEN"]
  else process.env["SCOREBRIDGE_TOKEN"] = savedToken
  rmSync(dir, { recursive: true, force: true })
})

const standIn = (onVersion: string, body: string) => {
  const path = join(dir, "gpiomon")
  writeFileSync(path, `#!/bin/sh\nif [ "$1" = "--version" ]; then\n${onVersion}\nfi\nenv > "${dir}/env"\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

const reading = (command: string, version: 2 | "auto") =>
  Effect.gen(function*() {
    const states: Array<LinkState> = []
    const fiber = yield* Effect.forkChild(
      Stream.runDrain(gpiomonChunks({ command, chip: "gpiochip0", lines: [17], version }, (state) => states.push(state))).pipe(Effect.provide(Logger.layer([])))
    )
    return { states, fiber }
  })

describe("gpiomon's child", () => {
  it.live("is given a tool's environment, not the daemon's token", () =>
    Effect.gen(function*() {
      process.env["SCOREBRIDGE_TOKEN"] = "secret-token-value"
      const { fiber } = yield* reading(standIn("exit 0", "exec sleep 30"), 2)
      const env = yield* Effect.promise(() => eventually("gpiomon's environment", () => (existsSync(join(dir, "env")) && readFileSync(join(dir, "env"), "utf8").includes("PATH=") ? readFileSync(join(dir, "env"), "utf8") : undefined)))
      yield* Fiber.interrupt(fiber)
      assert.notInclude(env, "secret-token-value")
    }))

  it.effect("a --version that never answers is stopped with what it started after 5 s, and the reason says so", () =>
    Effect.gen(function*() {
      const hang = `echo $$ > "${dir}/pid"; sleep 30 & echo $! > "${dir}/sleep.pid"; wait`
      const command = standIn(hang, "exit 0")
      const { states, fiber } = yield* reading(command, "auto")
      const pids = yield* Effect.promise(() => wrapperPids(dir))
      yield* TestClock.adjust(5_000)
      const lost = yield* Effect.promise(() => eventually("the disconnect", () => states.find((s) => s._tag === "disconnected")))
      yield* Fiber.interrupt(fiber)
      assert.strictEqual(lost._tag === "disconnected" ? lost.reason : "", `${command} did not finish within 5000 ms and was stopped`)
      yield* Effect.promise(() => allGone("the hung --version and its sleep", pids))
    }))
})
