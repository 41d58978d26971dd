import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { protocols } from "../../adapters/registry.ts"
import { lines } from "../../adapters/lines/index.ts"
import { serialButtons } from "../../adapters/serial-buttons/index.ts"
import { type ConfigError, parseConfig } from "../../src/config/load.ts"

const utf8 = (text: string) => new TextEncoder().encode(text)

// (a|a)*b backtracks 2^n times on n a's without a b in JavaScript's engine (26 a's: seconds).
const catastrophic = "^(?<gesture>(a|a)*b)$"
const thirtyAs = "a".repeat(30)

const withButtonPattern = (pattern: string) => `
service:
  baseUrl: https://api.example.com
  token: { env: SCOREBRIDGE_TOKEN }
buttons:
  - name: court1-arduino
    type: serial-buttons
    serial: { path: /dev/ttyUSB1 }
    options:
      pattern: '${pattern}'
places:
  - key: gym
    sport: basketball
    scoreboard:
      protocol: daktronics-rtd
      serial: { path: /dev/ttyUSB0 }
`

const problemsOf = (text: string) =>
  parseConfig(text, "patterns.yaml", protocols).pipe(
    Effect.as([] as ReadonlyArray<string>),
    Effect.catchTag("ConfigError", (error: ConfigError) => Effect.succeed(error.problems.map((problem) => `${problem.path} ${problem.message}`)))
  )

describe("config patterns run in linear time (RE2)", () => {
  it("a catastrophic serial-buttons pattern is accepted and a 30-a line is simply not a press", () => {
    const options = Schema.decodeUnknownSync(serialButtons.optionsSchema)({ pattern: catastrophic })
    const decoder = serialButtons.makeDecoder({ ...options, source: "s" })
    assert.deepStrictEqual(decoder.push(utf8(`${thirtyAs}\n`), 1), [])
    assert.strictEqual(decoder.stats.bad, 1)
  })

  it("a catastrophic lines pattern is run by the same engine: no reading, a malformed frame", () => {
    const options = Schema.decodeUnknownSync(lines.optionsSchema)({ pattern: "^(?<home>(1|1)*2) (?<away>\\d+)$" })
    const decoder = lines.makeDecoder({ ...options, sport: "basketball", maxFrameBytes: 256 } as never)
    assert.deepStrictEqual(decoder.push(utf8(`${"1".repeat(30)}\n`), 1), [])
  })

  it("matches as before: named groups, a group that took no part is undefined", () => {
    const options = Schema.decodeUnknownSync(serialButtons.optionsSchema)({})
    const decoder = serialButtons.makeDecoder({ ...options, source: "s" })
    assert.deepStrictEqual(decoder.push(utf8("BTN 2 hold\n"), 5), [{ source: "s", button: "2", gesture: "hold", pressedAt: 5 }])
  })

  it.effect("the config's decoder refuses backreferences and lookaround in words", () =>
    Effect.gen(function*() {
      for (const pattern of ["^(?<gesture>a)\\1$", "^(?<gesture>a)\\k<gesture>$", "^(?=x)(?<gesture>\\w+)$", "^(?<!x)(?<gesture>\\w+)$"]) {
        const problems = yield* problemsOf(withButtonPattern(pattern))
        assert.isTrue(problems.some((text) => /backreference or lookaround/u.test(text)), `${pattern}: ${problems.join("; ")}`)
      }
      assert.deepStrictEqual(yield* problemsOf(withButtonPattern(catastrophic)), [])
    }))
})
