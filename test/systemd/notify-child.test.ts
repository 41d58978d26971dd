import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Logger } from "effect"
import { TestClock } from "effect/testing"
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach } from "vitest"
import { SystemdNotify } from "../../src/daemon/systemd-notify.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { allGone } from "../process/child-support.ts"

/**
 * The daemon's systemd-notify child, played by a stand-in first on the PATH: it gets the socket
 * systemd named and none of the daemon's other variables (a token in the environment stays
 * ours), its failures are logged with what it said, and one that hangs is stopped at the send's
 * bound (8 s on the Effect clock) instead of piling up one child per watchdog ping.
 */
let dir: string
let savedPath: string | undefined
const saved: Record<string, string | undefined> = {}
const setEnv = (name: string, value: string) => {
  if (!(name in saved)) saved[name] = process.env[name]
  process.env[name] = value
}
beforeEach(() => {
  dir = tempDir("notify-child")
  savedPath = process.env["PATH"]
})
afterEach(() => {
  process.env["PATH"] = savedPath
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
    delete saved[name]
  }
  rmSync(dir, { recursive: true, force: true })
})

/** A systemd-notify that records its arguments and environment, then runs `body`. */
const standIn = (body: string) => {
  const path = join(dir, "systemd-notify")
  writeFileSync(path, `#!/bin/sh\necho $$ > "${dir}/pid"\necho "$*" > "${dir}/args"\nenv > "${dir}/env"\n${body}\n`)
  chmodSync(path, 0o755)
  setEnv("PATH", `${dir}:${savedPath ?? "/usr/bin:/bin"}`)
}
const fileText = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : undefined)

/** The live layer, as the daemon builds it from systemd's variables, with its log collected. */
const notifier = (logs: Array<string>) => {
  setEnv("NOTIFY_SOCKET", join(dir, "notify.sock"))
  const collector = Logger.make(({ message }) => logs.push(String(Array.isArray(message) ? message.join(" ") : message)))
  return Layer.merge(SystemdNotify.layer, Logger.layer([collector]))
}

describe("the systemd-notify child", () => {
  it.live("is given NOTIFY_SOCKET and a tool's environment, not the daemon's secrets", () =>
    Effect.gen(function*() {
      standIn("exit 0")
      setEnv("SCOREBRIDGE_TOKEN", "secret-token-value")
      const logs: Array<string> = []
      yield* Effect.gen(function*() {
        yield* (yield* SystemdNotify).send({ READY: "1", STATUS: "running:\ncourt-1" })
      }).pipe(Effect.provide(notifier(logs)))
      assert.strictEqual(fileText("args"), "READY=1 STATUS=running: court-1\n")
      const env = fileText("env") ?? ""
      assert.include(env, `NOTIFY_SOCKET=${join(dir, "notify.sock")}\n`)
      assert.notInclude(env, "secret-token-value")
      assert.deepStrictEqual(logs, [])
    }))

  it.live("a failure is logged with what systemd-notify said", () =>
    Effect.gen(function*() {
      standIn("echo 'Failed to notify init system: Connection refused' >&2; exit 1")
      const logs: Array<string> = []
      yield* Effect.gen(function*() {
        yield* (yield* SystemdNotify).send({ WATCHDOG: "1" })
      }).pipe(Effect.provide(notifier(logs)))
      assert.deepStrictEqual(logs, ["systemd-notify WATCHDOG failed: systemd-notify exited with code 1: Failed to notify init system: Connection refused"])
    }))

  it.effect("one that hangs is stopped after 8 s, and the send goes on", () =>
    Effect.gen(function*() {
      standIn("exec sleep 60")
      const logs: Array<string> = []
      const fiber = yield* Effect.forkChild(Effect.gen(function*() {
        yield* (yield* SystemdNotify).send({ WATCHDOG: "1" })
      }).pipe(Effect.provide(notifier(logs))))
      const pid = yield* Effect.promise(() => eventually("the stand-in started", () => (fileText("env") === undefined ? undefined : Number(fileText("pid")))))
      yield* TestClock.adjust(8_000)
      yield* Fiber.join(fiber)
      assert.deepStrictEqual(logs, ["systemd-notify WATCHDOG failed: systemd-notify did not finish within 8000 ms and was stopped"])
      yield* Effect.promise(() => allGone("the hung systemd-notify", [pid]))
    }))
})
