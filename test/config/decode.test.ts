import { hostname } from "node:os"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import { parseConfig } from "../../src/config/load.ts"
import type { ProtocolCatalog } from "../../src/config/protocol-options.ts"
import { buttonSources } from "../../adapters/button-registry.ts"
import { protocols } from "../../adapters/registry.ts"
import { defaultPattern as serialButtonsPattern } from "../../adapters/serial-buttons/options.ts"
import type { ButtonSourceCatalog } from "../../src/config/button-options.ts"
import { buttonSourceTypes } from "../../src/config/buttons.ts"
import { liveFields, liveFieldsIn } from "../../src/config/overlay.ts"

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

  it.effect("a Stramatel field moved in frames its place's sport does not read is a problem naming it", () =>
    Effect.gen(function*() {
      const stramatel = (sport: string, fields: string) => `
service:
  baseUrl: https://api.example.com
  token: { env: SCOREBRIDGE_TOKEN }
places:
  - key: hall
    sport: ${sport}
    scoreboard:
      protocol: stramatel-452m
      serial: { path: /dev/ttyUSB0 }
      options:
        fields: { ${fields} }
`
      // Code 0x33 is the basketball layout's: a volleyball place reads 0x36 and skips 0x33, so the entry would do nothing.
      const error = yield* Effect.flip(parseConfig(stramatel("volleyball", `home: "0x36 9-10", away: "0x33 12-13"`), "hall.yaml", protocols))
      assert.strictEqual(
        error.message,
        `hall.yaml:12:44 places[0].scoreboard.options.fields.away: "0x33 12-13" is in frames of code 0x33 (the basketball layout), `
          + `which a volleyball place does not read: its frames are code 0x36; move the field there, or check the place's sport`
      )
      const { config } = yield* parseConfig(stramatel("basketball", `away: "0x33 12-13"`), "hall.yaml", protocols)
      assert.deepStrictEqual(config.places[0]?.scoreboard?.options, { fields: { away: "0x33 12-13" } })
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

const withButtons = `${minimal}    actions:
      - { source: keypad, button: 30, gesture: single, do: highlight }
      - { source: arduino, button: left, gesture: double, do: highlight, team: away }
      - { source: header, gesture: hold, do: undo }
buttons:
  - name: keypad
    type: input-event
    device: /dev/input/by-id/usb-keypad-event-kbd
  - name: header
    type: gpiomon
    gpio: { chip: gpiochip0, lines: [17] }
  - name: arduino
    type: serial-buttons
    serial: { path: /dev/ttyACM0 }
`

describe("buttons, actions and clicks", () => {
  it.effect("apply the documented defaults", () =>
    Effect.gen(function*() {
      const { config } = yield* parseConfig(withButtons, "buttons.yaml", protocols)
      const [keypad, header, arduino] = config.buttons ?? []
      // Each source's options are decoded by its own schema, defaults included.
      assert.deepStrictEqual(keypad?.options, { recordBytes: 24 })
      assert.deepStrictEqual(header?.gpio, { chip: "gpiochip0", lines: [17], command: "gpiomon" })
      assert.deepStrictEqual(header?.options, {})
      assert.strictEqual(arduino?.serial?.maxFrameBytes, 4096)
      assert.isUndefined(arduino?.serial?.baudRate)
      assert.deepStrictEqual(arduino?.options, { pattern: serialButtonsPattern })

      const place = config.places[0]!
      assert.deepStrictEqual(place.actions, [
        { source: "keypad", button: "30", gesture: "single", do: "highlight", team: "none" },
        { source: "arduino", button: "left", gesture: "double", do: "highlight", team: "away" },
        { source: "header", gesture: "hold", do: "undo" }
      ])
      // No clicks: block: the sport's default window (no before/after), undo within 120 s, auto-highlights merged within 5 s.
      assert.deepStrictEqual(place.clicks, { undoWithinSeconds: 120, mergeSeconds: 5 })
      assert.isUndefined(place.teams)
    }))

  it.effect("a place without buttons still gets the click defaults", () =>
    Effect.gen(function*() {
      const { config } = yield* parseConfig(minimal, "minimal.yaml", protocols)
      assert.isUndefined(config.buttons)
      assert.isUndefined(config.places[0]?.actions)
      assert.deepStrictEqual(config.places[0]?.clicks, { undoWithinSeconds: 120, mergeSeconds: 5 })
    }))

  it.effect("keep the configured window, feedback topic and overlays as written", () =>
    Effect.gen(function*() {
      const text = `${withButtons}mqtt: { url: "mqtt://127.0.0.1:1883" }\n`.replace("    actions:", [
        "    clicks: { beforeSeconds: 7.5, afterSeconds: 0, undoWithinSeconds: 30, feedbackTopic: venue/gym/feedback }",
        "    teams:",
        "      away:",
        "        overlay:",
        "          templateSource: http://127.0.0.1:8080/bug.html",
        "          values: { name: \"{{ team }}\", score: \"{{teamScore}} (set {{period}})\", empty: \"\" }",
        "          widthPercentOfWidth: 100",
        "          marginPercentOfWidth: 0",
        "          position: { horizontal: center, vertical: bottom }",
        "          startTime: 0",
        "          duration: 3000",
        "    actions:"
      ].join("\n"))
      const { config } = yield* parseConfig(text, "window.yaml", protocols)
      const place = config.places[0]!
      assert.deepStrictEqual(place.clicks, { beforeSeconds: 7.5, afterSeconds: 0, undoWithinSeconds: 30, mergeSeconds: 5, feedbackTopic: "venue/gym/feedback" })
      assert.deepStrictEqual(place.teams?.away?.overlay, {
        templateSource: "http://127.0.0.1:8080/bug.html",
        values: { name: "{{ team }}", score: "{{teamScore}} (set {{period}})", empty: "" },
        widthPercentOfWidth: 100,
        marginPercentOfWidth: 0,
        position: { horizontal: "center", vertical: "bottom" },
        startTime: 0,
        duration: 3000
      })
    }))

  it.effect("button options are checked by the catalog given", () =>
    Effect.gen(function*() {
      const catalog: ButtonSourceCatalog = {
        ...buttonSources,
        gpiomon: { ...buttonSources["gpiomon"]!, optionsSchema: Schema.Struct({ y: Schema.Finite.pipe(Schema.withDecodingDefaultKey(Effect.succeed(3))) }) }
      }
      const { config } = yield* parseConfig(withButtons, "buttons.yaml", protocols, catalog)
      assert.deepStrictEqual(config.buttons?.[1]?.options, { y: 3 })
      const error = yield* Effect.flip(parseConfig(withButtons, "buttons.yaml", protocols, {}))
      assert.include(error.message, `buttons[0].type: button source type "input-event" is not available in this build`)
    }))

  it("every button source type the config accepts is in the registry", () => {
    assert.sameMembers([...buttonSourceTypes], Object.keys(buttonSources))
  })
})

describe("live fields", () => {
  it("are listed once, for the click builder and the template checker", () => {
    assert.deepStrictEqual([...liveFields], [
      "homeTeam", "awayTeam", "homeScore", "awayScore", "period", "team", "teamScore",
      "homePenalties", "awayPenalties", "teamPenalties", "homeFouls", "awayFouls", "teamFouls",
      "homeTimeouts", "awayTimeouts", "teamTimeouts",
      "lane", "place", "time", "event", "heat", "swimmer"
    ])
  })

  it("are found in a value, spaces inside the braces tolerated", () => {
    assert.deepStrictEqual(liveFieldsIn("{{homeScore}}-{{ awayScore }} {{nope}} {single}"), ["homeScore", "awayScore", "nope"])
  })
})
