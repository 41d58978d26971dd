import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { TestClock, TestConsole } from "effect/testing"
import * as td from "testdouble"
import { afterAll, beforeEach, expect } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import type { Systemctl, SystemctlRan } from "../../src/setup/privilege/systemctl.ts"
import { launchSetupUnit, stopSetupUnit } from "../../src/setup/privilege/unit-launcher.ts"

/**
 * `sudo scorebridge setup` on an installed machine, with systemd doubled at its one seam
 * (systemctl) and real files: the env file it hands the unit, the verb it asks for, and what it
 * prints from the announce file the (doubled) unit writes.
 */
const unit = "scorebridge-setup.service"
const dir = tempDir("launcher")
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const announcePath = join(dir, "run/announce")
const environmentPath = join(dir, "scorebridge-setup.env")

const ran = (stdout = "", code = 0, stderr = ""): Effect.Effect<SystemctlRan> => Effect.succeed({ code, stdout, stderr })
const announced = (code: string) => `setup page: http://127.0.0.1:8444/\nsetup code: ${code}\n`
/** As the unit does: the file rewritten whole, later than the launcher's start. */
const unitWrites = (text: string) =>
  Effect.sync(() => {
    mkdirSync(join(dir, "run"), { recursive: true })
    writeFileSync(announcePath, text)
    const later = new Date(Date.now() + 1_000)
    utimesSync(announcePath, later, later)
  })

let systemctl: Systemctl
beforeEach(() => {
  rmSync(join(dir, "run"), { recursive: true, force: true })
  rmSync(environmentPath, { force: true })
  systemctl = td.func<Systemctl>()
})

const state = (active: string, result = "success") => {
  td.when(systemctl(["show", "-p", "ActiveState", "--value", unit])).thenReturn(ran(`${active}\n`))
  td.when(systemctl(["show", "-p", "ActiveState", "-p", "Result", "--value", unit])).thenReturn(ran(`${active}\n${result}\n`))
}
/** What the launcher printed: stdout's lines, then stderr's (marked). */
const printedLines = Effect.map(
  Effect.all([TestConsole.logLines, TestConsole.errorLines]),
  ([logs, errors]) => [...logs.flatMap((line) => String(line).split("\n")), ...errors.map((line) => `error: ${String(line)}`)]
)
const launch = (options: { lan: boolean; port: number }) => launchSetupUnit(options, { systemctl, announcePath, environmentPath })

describe("sudo scorebridge setup, installed", () => {
  it.effect("not running: writes the options to the env file (0644), starts the unit and prints what it announced", () =>
    Effect.gen(function*() {
      state("inactive")
      td.when(systemctl(["start", unit])).thenDo(() => Effect.andThen(Effect.sync(() => state("active")), Effect.andThen(unitWrites(announced("ABCD-EFGH")), ran())))
      assert.strictEqual(yield* launch({ lan: true, port: 8444 }), 0)
      expect(readFileSync(environmentPath, "utf8")).toBe("SCOREBRIDGE_SETUP_OPTIONS=--lan --port 8444\n")
      expect(statSync(environmentPath).mode & 0o777).toBe(0o644)
      expect((yield* printedLines).slice(0, 2)).toEqual(["setup page: http://127.0.0.1:8444/", "setup code: ABCD-EFGH"])
      expect((yield* printedLines).join("\n")).toContain("sudo scorebridge setup --stop")
    }).pipe(Effect.provide(TestConsole.layer)))

  it.effect("running with the same options: SIGUSR1 to its main process, and the fresh code printed", () =>
    Effect.gen(function*() {
      state("active")
      writeFileSync(environmentPath, "SCOREBRIDGE_SETUP_OPTIONS=--port 8444\n")
      yield* unitWrites(announced("ABCD-EFGH"))
      td.when(systemctl(["kill", "--kill-whom=main", "-s", "SIGUSR1", unit])).thenDo(() => Effect.andThen(unitWrites(announced("JKLM-NPQR")), ran()))
      assert.strictEqual(yield* launch({ lan: false, port: 8444 }), 0)
      const lines = yield* printedLines
      expect(lines.slice(0, 3)).toEqual(["setup page: http://127.0.0.1:8444/", "setup code: JKLM-NPQR", "The code printed before no longer logs in."])
      td.verify(systemctl(["start", unit]), { times: 0 })
      td.verify(systemctl(["restart", unit]), { times: 0 })
    }).pipe(Effect.provide(TestConsole.layer)))

  it.effect("running with other options: the env file rewritten and the unit restarted", () =>
    Effect.gen(function*() {
      state("active")
      writeFileSync(environmentPath, "SCOREBRIDGE_SETUP_OPTIONS=--port 8444\n")
      yield* unitWrites(announced("ABCD-EFGH"))
      td.when(systemctl(["restart", unit])).thenDo(() => Effect.andThen(unitWrites(announced("STUV-WXYZ")), ran()))
      assert.strictEqual(yield* launch({ lan: true, port: 8444 }), 0)
      expect(readFileSync(environmentPath, "utf8")).toBe("SCOREBRIDGE_SETUP_OPTIONS=--lan --port 8444\n")
      expect((yield* printedLines)[1]).toContain("setup code: STUV-WXYZ")
      td.verify(systemctl(td.matchers.contains("kill")), { times: 0 })
    }).pipe(Effect.provide(TestConsole.layer)))

  it.effect("a unit that fails at start: exit 1, and where to look", () =>
    Effect.gen(function*() {
      state("inactive")
      td.when(systemctl(["start", unit])).thenDo(() => Effect.andThen(Effect.sync(() => state("failed", "exit-code")), ran()))
      assert.strictEqual(yield* launch({ lan: false, port: 8444 }), 1)
      expect(yield* printedLines).toEqual([`error: ${unit} was started but is not running (failed, result exit-code): see journalctl -u scorebridge-setup`])
    }).pipe(Effect.provide(TestConsole.layer)))

  it.effect("systemctl refusing the start: exit 1 with its reason", () =>
    Effect.gen(function*() {
      state("inactive")
      td.when(systemctl(["start", unit])).thenReturn(ran("", 5, "Failed to start scorebridge-setup.service: Unit scorebridge-setup.service not found.\n"))
      assert.strictEqual(yield* launch({ lan: false, port: 8444 }), 1)
      expect(yield* printedLines).toEqual([`error: systemctl start ${unit} failed: Failed to start scorebridge-setup.service: Unit scorebridge-setup.service not found. (see journalctl -u scorebridge-setup)`])
    }).pipe(Effect.provide(TestConsole.layer)))

  it.effect("a running unit that announces nothing: gives up after 15 s (exit 1)", () =>
    Effect.gen(function*() {
      state("inactive")
      const asked = yield* Deferred.make<void>()
      td.when(systemctl(["start", unit])).thenReturn(ran())
      td.when(systemctl(["show", "-p", "ActiveState", "-p", "Result", "--value", unit])).thenDo(() => Effect.andThen(Deferred.succeed(asked, undefined), ran("active\nsuccess\n")))
      const fiber = yield* Effect.forkChild(launch({ lan: false, port: 8444 }))
      yield* Deferred.await(asked)
      yield* TestClock.adjust(14_000)
      assert.isUndefined(fiber.pollUnsafe())
      yield* TestClock.adjust(1_000)
      assert.strictEqual(yield* Fiber.join(fiber), 1)
      expect(yield* printedLines).toEqual([`error: ${unit} was started but announced no page and code within 15 s: see journalctl -u scorebridge-setup`])
    }).pipe(Effect.provide(TestConsole.layer)))

  it.effect("--stop: systemctl stop", () =>
    Effect.gen(function*() {
      td.when(systemctl(["stop", unit])).thenReturn(ran())
      assert.strictEqual(yield* stopSetupUnit({ systemctl }), 0)
      expect(yield* printedLines).toEqual([`${unit} stopped: its codes and sessions are gone`])
    }).pipe(Effect.provide(TestConsole.layer)))
})
