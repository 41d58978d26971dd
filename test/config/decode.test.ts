import { hostname } from "node:os"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import { parseConfig } from "../../src/config/load.ts"
import type { ProtocolCatalog } from "../../src/config/protocol-options.ts"
import { protocols } from "../../adapters/registry.ts"

const minimal = `
service:
  baseUrl: https://api.example.com
  token: { env: SCOREBRIDGE_TOKEN }
places:
  - key: gym
    sport: basketball
    scoreboard:
      protocol: daktronics-rtd
      serial: { path: /dev/ttyUSB0 }
`

describe("decoding", () => {
  it.effect("applies the documented defaults", () =>
    Effect.gen(function*() {
      delete process.env["STATE_DIRECTORY"]
      const { config } = yield* parseConfig(minimal, "minimal.yaml", protocols)
      assert.strictEqual(config.service.requestsPerSecond, 1)
      assert.strictEqual(config.service.timeoutMs, 10_000)
      assert.strictEqual(config.stateDirectory, "./state")
      assert.strictEqual(config.retention.deliveredHours, 72)
      assert.strictEqual(config.status.listen, "127.0.0.1:8370")
      assert.strictEqual(config.log.level, "info")
      assert.isUndefined(config.mqtt)
      const board = config.places[0]?.scoreboard
      assert.strictEqual(board?.serial?.maxFrameBytes, 4096)
      // Line settings stay unset: the protocol's serialDefaults apply where the port is opened.
      assert.isUndefined(board?.serial?.baudRate)
      assert.deepStrictEqual(board?.options, {})
    }))

  it.effect("takes the state directory from systemd's $STATE_DIRECTORY", () =>
    Effect.gen(function*() {
      process.env["STATE_DIRECTORY"] = "/var/lib/scorebridge"
      const { config } = yield* parseConfig(minimal, "minimal.yaml", protocols)
      delete process.env["STATE_DIRECTORY"]
      assert.strictEqual(config.stateDirectory, "/var/lib/scorebridge")
    }))

  it.effect("defaults the MQTT client id to the host name, and verifies TLS", () =>
    Effect.gen(function*() {
      const text = `${minimal}mqtt:\n  url: mqtts://broker:8883\n  tls: { ca: /etc/ca.pem }\n`
      const { config } = yield* parseConfig(text, "mqtt.yaml", protocols)
      assert.strictEqual(config.mqtt?.clientId, `scorebridge-${hostname()}`.replace(/[^A-Za-z0-9_.-]/gu, "-").slice(0, 64))
      assert.strictEqual(config.mqtt?.topicPrefix, "scorebridge")
      assert.strictEqual(config.mqtt?.tls?.rejectUnauthorized, true)
    }))

  it.effect("locates paths in the source", () =>
    Effect.gen(function*() {
      const { locate } = yield* parseConfig(minimal, "minimal.yaml", protocols)
      assert.deepStrictEqual(locate(["places", 0, "scoreboard", "serial", "path"]), { line: 10, column: 23 })
      assert.deepStrictEqual(locate(["service", "token"], true), { line: 4, column: 3 })
    }))
})

// A protocol whose options need a number `x`: shows options are checked by the catalog given, not by the config schema.
const strictOptions: ProtocolDefinition<{ readonly x: number }> = {
  ...protocols["daktronics-rtd"]!,
  sports: ["basketball"],
  optionsSchema: Schema.Struct({ x: Schema.Finite.pipe(Schema.withDecodingDefaultKey(Effect.succeed(7))) }),
  makeDecoder: () => {
    throw new Error("not used")
  }
}

describe("protocol options", () => {
  it.effect("are decoded by the protocol's own schema, defaults included", () =>
    Effect.gen(function*() {
      const catalog: ProtocolCatalog = { "daktronics-rtd": strictOptions }
      const { config } = yield* parseConfig(minimal, "minimal.yaml", catalog)
      assert.deepStrictEqual(config.places[0]?.scoreboard?.options, { x: 7 })
    }))

  it.effect("problems carry the full path and position", () =>
    Effect.gen(function*() {
      const catalog: ProtocolCatalog = { "daktronics-rtd": strictOptions }
      const error = yield* Effect.flip(parseConfig(`${minimal}      options: { x: many }\n`, "opts.yaml", catalog))
      assert.strictEqual(error.message, `opts.yaml:11:21 places[0].scoreboard.options.x: expected a number, got "many"`)
    }))

  it.effect("a protocol missing from the registry is a problem, not a crash", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(parseConfig(minimal, "minimal.yaml", {}))
      assert.strictEqual(error.message, `minimal.yaml:9:17 places[0].scoreboard.protocol: protocol "daktronics-rtd" is not available in this build`)
    }))

  it("every protocol name the config accepts is in the registry", async () => {
    const { protocolNames } = await import("../../src/config/place.ts")
    assert.sameMembers([...protocolNames], Object.keys(protocols))
  })
})
