import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Console, Effect } from "effect"
import { protocols } from "../../adapters/registry.ts"
import { runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { printable, withPrintableConsole } from "../../src/cli/printable.ts"
import { type ConfigError, parseConfig } from "../../src/config/load.ts"

const esc = "\u001b"

const withPlace = (name: string, key = "gym", source = "court1-arduino") => `
service:
  baseUrl: https://api.example.com
  token: { env: SCOREBRIDGE_TOKEN }
buttons:
  - name: court1-arduino
    type: serial-buttons
    serial: { path: /dev/ttyUSB1 }
places:
  - key: ${JSON.stringify(key)}
    name: ${JSON.stringify(name)}
    sport: basketball
    actions:
      - { source: ${JSON.stringify(source)}, gesture: single, do: highlight }
`

const problemsOf = (text: string) =>
  parseConfig(text, "names.yaml", protocols).pipe(
    Effect.as([] as ReadonlyArray<string>),
    Effect.catchTag("ConfigError", (error: ConfigError) => Effect.succeed(error.problems.map((problem) => `${problem.path}: ${problem.message}`)))
  )

const refusedAt = (problems: ReadonlyArray<string>, path: string, words: RegExp) =>
  assert.isTrue(problems.some((line) => line.startsWith(`${path}:`) && words.test(line)), problems.join("; "))

describe("names in the config", () => {
  it.effect("a name is 1–64 characters without control characters, or refused naming the field", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* problemsOf(withPlace("Court 1 — Centre")), [])
      refusedAt(yield* problemsOf(withPlace(`Court 1${esc}]0;owned${esc}\\`)), "places[0].name", /control character/u)
      refusedAt(yield* problemsOf(withPlace("Court\u009b31m")), "places[0].name", /control character/u)
      refusedAt(yield* problemsOf(withPlace("x".repeat(65))), "places[0].name", /65 characters long: give at most 64/u)
      refusedAt(yield* problemsOf(withPlace("ok", `gym${esc}[2J`)), "places[0].key", /control character/u)
      refusedAt(yield* problemsOf(withPlace("ok", "gym", `court1${esc}[2J`)), "places[0].actions[0].source", /control character/u)
      const overlay = `${withPlace("ok")}    teams:\n      home:\n        overlay:\n          templateSource: https://cdn.example.com/s.html\n          values:\n            team: "Home\\e[2J"\n`
      refusedAt(yield* problemsOf(overlay), "places[0].teams.home.overlay.values.team", /control character/u)
    }))
})

describe("the CLI prints no control character it did not write", () => {
  it("printable escapes C0, DEL and C1 but keeps line feeds and tabs", () => {
    assert.strictEqual(printable(`a${esc}[2Jb\u007f\u009b\r\n\tc`), "a\\x1b[2Jb\\x7f\\x9b\\x0d\n\tc")
  })

  it.effect("a command run with the printable console escapes every line, whichever module prints it", () =>
    Effect.gen(function*() {
      const printed: Array<unknown> = []
      const recording = { ...globalThis.console, log: (...args: ReadonlyArray<unknown>) => printed.push(...args), error: (...args: ReadonlyArray<unknown>) => printed.push(...args) }
      yield* withPrintableConsole(Effect.andThen(Console.log(`board says ${esc}]0;owned\u0007`), Console.error(`bad ${esc}[2J`))).pipe(
        Effect.provideService(Console.Console, recording)
      )
      assert.deepStrictEqual(printed, ["board says \\x1b]0;owned\\x07", "bad \\x1b[2J"])
    }))

  it("scorebridge check on a config with an escape sequence in a name prints no raw ESC", async () => {
    const file = join(tempDir("names"), "escape.yaml")
    writeFileSync(file, withPlace(`Court${esc}]0;owned${esc}\\${esc}[2J`))
    const run = await runScorebridge("check", ["--config", file], { SCOREBRIDGE_FROM_SOURCE: "1", SCOREBRIDGE_TOKEN: "t" })
    assert.strictEqual(run.code, 78)
    assert.include(run.stderr, "places[0].name")
    assert.notInclude(run.stdout + run.stderr, esc)
    assert.notInclude(run.stdout + run.stderr, "\u009b")
  }, 60_000)

  it("scorebridge check escapes what the config may hold and it echoes (a state directory with an escape, a broker password)", async () => {
    const dir = tempDir("names")
    const file = join(dir, "echo.yaml")
    writeFileSync(file, `stateDirectory: "/tmp/state${esc}[2J"\nmqtt: { url: "mqtt://u:hunter2@127.0.0.1:1" }\n${withPlace("Court 1")}`)
    const run = await runScorebridge("check", ["--config", file], { SCOREBRIDGE_FROM_SOURCE: "1", SCOREBRIDGE_TOKEN: "t" })
    assert.strictEqual(run.code, 0, run.stderr)
    assert.include(run.stdout, "/tmp/state\\x1b[2J")
    assert.notInclude(run.stdout, esc)
    assert.notInclude(run.stdout, "hunter2")
  }, 60_000)
})
