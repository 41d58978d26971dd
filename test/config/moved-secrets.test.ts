import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { protocols } from "../../adapters/registry.ts"
import { parseConfig } from "../../src/config/load.ts"
import { movedSecretWarnings } from "../../src/config/moved-secrets.ts"

const config = (baseUrl: string, mqttUrl: string, username = "venue") =>
  parseConfig(`
service:
  baseUrl: ${baseUrl}
  token: { credential: token }
mqtt:
  url: ${mqttUrl}
  username: ${username}
  password: { env: BROKER_PASSWORD }
places:
  - key: gym
    sport: basketball
    scoreboard:
      protocol: daktronics-rtd
      serial: { path: /dev/ttyUSB0 }
`, "moved.yaml", protocols).pipe(Effect.map((loaded) => loaded.config))

describe("a reload that moves a secret's destination (the daemon's SIGHUP)", () => {
  it.effect("warns, naming the origins and never the secret, when an address moves with the same secret", () =>
    Effect.gen(function*() {
      const token = Redacted.make("sbtok-secret-value-123")
      const before = { config: yield* config("https://api.example.com/v1", "mqtt://broker-a:1883"), token }
      const moved = { config: yield* config("https://elsewhere.example.net/v1", "mqtt://broker-b:1883"), token }
      const warnings = movedSecretWarnings(before, moved)
      assert.strictEqual(warnings.length, 2)
      assert.match(warnings[0]!, /service\.baseUrl moved from https:\/\/api\.example\.com to https:\/\/elsewhere\.example\.net with the same token/u)
      assert.match(warnings[1]!, /mqtt\.url moved from mqtt:\/\/broker-a:1883 to mqtt:\/\/broker-b:1883 with the same username and password/u)
      for (const warning of warnings) assert.notInclude(warning, "sbtok-secret-value-123")

      // Same origins (a new path), a new token, a new login: nothing to say.
      assert.deepStrictEqual(movedSecretWarnings(before, { config: yield* config("https://API.example.com/v2", "mqtt://broker-a:1883"), token }), [])
      const renewed = { config: yield* config("https://elsewhere.example.net", "mqtt://broker-b:1883", "other"), token: Redacted.make("sbtok-new") }
      assert.deepStrictEqual(movedSecretWarnings(before, renewed), [])
    }))
})
