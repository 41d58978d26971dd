import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { protocols } from "../../adapters/registry.ts"
import { parseConfig } from "../../src/config/load.ts"
import { statusOptionsOf } from "../../src/status/status-layer.ts"

const config = (status: string, mqtt = "") => `
service:
  baseUrl: https://api.example.com
  token: { env: SCOREBRIDGE_TOKEN }
${status}
${mqtt}
places:
  - key: gym
    sport: basketball
    scoreboard:
      protocol: daktronics-rtd
      serial: { path: /dev/ttyUSB0 }
`

describe("status: config", () => {
  it.effect("defaults: 127.0.0.1:8370, NO DATA after 10 s, stuck after 120 s, readings not published", () =>
    Effect.gen(function*() {
      const { config: decoded } = yield* parseConfig(config(""), "status.yaml", protocols)
      assert.deepStrictEqual(decoded.status, { listen: "127.0.0.1:8370", noDataAfterSeconds: 10, stuckAfterSeconds: 120, publishReadings: false })
      assert.deepStrictEqual(statusOptionsOf(decoded).thresholds, { noDataAfterMs: 10_000, stuckAfterMs: 120_000 })
      assert.deepStrictEqual(statusOptionsOf(decoded).places, [
        { key: "gym", sport: "basketball", scoreboard: { link: "serial", target: "/dev/ttyUSB0" }, buttonSources: [] }
      ])
    }))

  it.effect("publishReadings needs a broker", () =>
    Effect.gen(function*() {
      const failure = yield* Effect.flip(parseConfig(config("status: { publishReadings: true }"), "status.yaml", protocols))
      assert.match(failure.message, /status\.publishReadings.*needs the top-level mqtt: block/s)
      const { config: decoded } = yield* parseConfig(
        config("status: { publishReadings: true }", "mqtt: { url: mqtt://127.0.0.1:1883 }"),
        "status.yaml",
        protocols
      )
      assert.isTrue(decoded.status.publishReadings)
    }))
})
