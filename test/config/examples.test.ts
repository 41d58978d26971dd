import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkConfig } from "../../src/config/check.ts"
import { renderConfigJsonSchema } from "../../src/config/json-schema.ts"
import { loadConfig } from "../../src/config/load.ts"
import { buttonSourceNames, buttonSources } from "../../adapters/button-registry.ts"
import { protocolNames, protocols } from "../../adapters/registry.ts"
import { boardLineOptions } from "../../src/demo/tennis-match.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const configDir = join(import.meta.dirname, "../../config")
const examples = readdirSync(configDir).filter((name) => name.endsWith(".yaml")).sort()

const token = "example-T0KEN-value-1234"
process.env["SCOREBRIDGE_TOKEN"] = token
process.env["MQTT_PASSWORD"] = "example-mqtt-password"
// What systemd's LoadCredential=token:… provides.
const credentials = tempDir("credentials")
writeFileSync(join(credentials, "token"), `${token}\n`, { mode: 0o600 })
process.env["CREDENTIALS_DIRECTORY"] = credentials
afterAll(() => rmSync(credentials, { recursive: true, force: true }))

describe("example configs", () => {
  it("are exactly the ones the configuration page lists", () => {
    const page = readFileSync(join(import.meta.dirname, "../../docs/configuration.md"), "utf8")
    const listed = [...page.matchAll(/^\| \[`([a-z0-9-]+\.yaml)`\]\(\.\.\/config\/\1\) \|/gmu)].map((match) => match[1]!).sort()
    assert.deepStrictEqual(listed, examples)
  })

  // Installed, the example template sits in /etc/scorebridge/ (systemd/install.sh copies it there).
  const installed = tempDir("examples")
  afterAll(() => rmSync(installed, { recursive: true, force: true }))

  it.effect.each(examples)("%s passes check", (name) =>
    Effect.gen(function*() {
      const file = join(installed, name)
      writeFileSync(file, readFileSync(join(configDir, name), "utf8").replaceAll("/etc/scorebridge/scorebug.html", join(configDir, "scorebug.html")))
      const result = yield* checkConfig(file)
      assert.isTrue(result.ok, result.ok ? "" : result.report)
      assert.include(result.ok ? result.summary : "", `${file} is valid.`)
      assert.notInclude(result.ok ? result.summary : "", token)
    }))

  it.each(examples)("%s points editors at the JSON Schema", (name) => {
    const firstLine = readFileSync(join(configDir, name), "utf8").split("\n")[0]
    assert.strictEqual(firstLine, "# yaml-language-server: $schema=./scorebridge.schema.json")
  })

  it.effect("together cover every link", () =>
    Effect.gen(function*() {
      const configs = yield* Effect.forEach(examples, (name) => loadConfig(join(configDir, name)))
      const boards = configs.flatMap((config) => config.places.flatMap((place) => place.scoreboard ?? []))
      assert.isTrue(boards.some((board) => board.serial !== undefined))
      assert.isTrue(boards.some((board) => board.mqtt !== undefined))
      assert.isTrue(boards.some((board) => board.tcp?.listen !== undefined))
      assert.isTrue(boards.some((board) => board.tcp?.connect !== undefined))
      assert.isTrue(boards.some((board) => board.udp !== undefined))
    }))

  it.effect("together show both actions and both kinds of overlay", () =>
    Effect.gen(function*() {
      const configs = yield* Effect.forEach(examples, (name) => loadConfig(join(configDir, name)))
      const places = configs.flatMap((config) => config.places)
      const actions = places.flatMap((place) => place.actions ?? [])
      assert.sameMembers([...new Set(actions.map((action) => action.do === "undo" ? "undo" : action.team))], ["home", "away", "none", "undo"])
      const overlays = places.flatMap((place) => [place.teams?.home?.overlay, place.teams?.away?.overlay].filter((overlay) => overlay !== undefined))
      assert.isTrue(overlays.some((overlay) => overlay.imageSource !== undefined))
      assert.isTrue(overlays.some((overlay) => overlay.templateSource !== undefined && overlay.values !== undefined))
    }))
})

const indented = (spaces: string, yaml: string) => yaml.split("\n").map((line) => `${spaces}${line}`)

const head = ["service:", "  baseUrl: https://api.example.com", "  token: { env: SCOREBRIDGE_TOKEN }", "mqtt:", "  url: mqtt://127.0.0.1:1883"]

/** A whole config around a console's example scoreboard (its definition's `example`), at a place playing its first sport. */
const consoleExample = (name: string): string =>
  [...head, "places:", "  - key: court-1", `    sport: ${protocols[name]!.sports[0]}`, "    scoreboard:", ...indented("      ", protocols[name]!.example), ""].join("\n")

/** A whole config around a button source's example entry (its definition's `example`), pressed for highlights at one place. */
const buttonExample = (type: string): string =>
  [
    ...head,
    "buttons:",
    "  - name: example",
    ...indented("    ", buttonSources[type]!.example),
    "places:",
    "  - key: court-1",
    "    actions:",
    "      - { source: example, gesture: single, do: highlight }",
    ""
  ].join("\n")

describe("each console's and button source's example, from its definition", () => {
  const dir = tempDir("definition-examples")
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const passesCheck = (file: string, text: string) =>
    Effect.gen(function*() {
      writeFileSync(file, text)
      const result = yield* checkConfig(file)
      assert.isTrue(result.ok, result.ok ? "" : result.report)
      return yield* loadConfig(file)
    })

  it.effect.each(protocolNames)("console %s passes check with its protocol's options", (name) =>
    Effect.gen(function*() {
      const config = yield* passesCheck(join(dir, `${name}.yaml`), consoleExample(name))
      assert.strictEqual(config.places[0]?.scoreboard?.protocol, name)
    }))

  it.effect.each(buttonSourceNames)("button source %s passes check with its link and options", (type) =>
    Effect.gen(function*() {
      const config = yield* passesCheck(join(dir, `button-${type}.yaml`), buttonExample(type))
      assert.strictEqual(config.buttons?.[0]?.type, type)
    }))
})

it.effect("demo.yaml reads what the demo's simulated console prints", () =>
  Effect.gen(function*() {
    const config = yield* loadConfig(join(configDir, "demo.yaml"))
    assert.deepStrictEqual(config.places[0]?.scoreboard?.options, boardLineOptions)
  }))

describe("config/scorebridge.schema.json", () => {
  it("is the one generated from the Config schema (regenerate: node src/config/json-schema.ts > config/scorebridge.schema.json)", () => {
    assert.strictEqual(readFileSync(join(configDir, "scorebridge.schema.json"), "utf8"), renderConfigJsonSchema())
  })

  it("rejects unknown keys and documents fields", () => {
    const schema = JSON.parse(renderConfigJsonSchema())
    assert.strictEqual(schema.additionalProperties, false)
    assert.deepStrictEqual(schema.required, ["service", "places"])
    assert.isString(schema.properties.service.properties.token.description)
    assert.strictEqual(schema.properties.service.properties.requestsPerSecond.default, 1)
  })
})
