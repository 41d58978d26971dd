import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { configJsonSchema } from "../../src/config/json-schema.ts"
import { compareReference, expandBraces, formatDrift, referenceKeys, schemaKeyPaths } from "./config-reference.ts"
import { parseMarkdown } from "./markdown.ts"

const drift = (schemaKeys: ReadonlyArray<string>, markdown: string) =>
  compareReference(schemaKeys, referenceKeys(parseMarkdown(markdown)))

const table = (...rows: ReadonlyArray<string>): string =>
  ["Intro with `not.a.key`.", "", "| key | default | meaning |", "|---|---|---|", ...rows.map((r) => `| ${r} | — | … |`)].join("\n")

describe("schema key paths", () => {
  it("follow properties, array items, $ref and combinators, and skip forbidden properties", () => {
    expect(schemaKeyPaths({
      type: "object",
      properties: {
        service: { $ref: "#/$defs/Service" },
        places: {
          type: "array",
          items: {
            anyOf: [
              { properties: { key: { type: "string" }, team: { not: {} } } },
              { properties: { key: { type: "string" }, team: { type: "string" } } }
            ]
          }
        },
        values: { type: "object", additionalProperties: { type: "string" } }
      },
      $defs: { Service: { properties: { token: { oneOf: [{ properties: { env: {} } }, { properties: { file: {} } }] } } } }
    })).toEqual(["service", "service.token", "service.token.env", "service.token.file", "places", "places[].key", "places[].team", "values"])
  })

  it("stop at a recursive $ref", () => {
    expect(schemaKeyPaths({ $defs: { Node: { properties: { next: { $ref: "#/$defs/Node" } } } }, $ref: "#/$defs/Node" }))
      .toEqual(["next"])
  })
})

describe("reference tables", () => {
  it("expand brace groups", () => {
    expect(expandBraces("places[].teams.{home,away}.overlay.imageSource")).toEqual([
      "places[].teams.home.overlay.imageSource",
      "places[].teams.away.overlay.imageSource"
    ])
    expect(expandBraces("a.{b, c}.{d,e}")).toEqual(["a.b.d", "a.b.e", "a.c.d", "a.c.e"])
    expect(expandBraces("a.{b.{c,d},e}")).toEqual(["a.b.c", "a.b.d", "a.e"])
    expect(expandBraces("a.{b,c")).toEqual(["a.{b,c"])
  })

  it("read only tables headed `key`, every code span of the first cell, with its line", () => {
    const markdown = [
      table("`mqtt.tls.ca`, `mqtt.tls.cert` (PEM)", "`places[].scoreboard.{tcp,udp}.quietSeconds`"),
      "",
      "| name | meaning |", "|---|---|", "| `not.a.key` | other tables are ignored |"
    ].join("\n")
    expect(referenceKeys(parseMarkdown(markdown))).toEqual([
      { key: "mqtt.tls.ca", line: 5 },
      { key: "mqtt.tls.cert", line: 5 },
      { key: "places[].scoreboard.tcp.quietSeconds", line: 6 },
      { key: "places[].scoreboard.udp.quietSeconds", line: 6 }
    ])
  })

  const schemaKeys = ["service", "service.baseUrl", "service.token", "service.token.env", "service.token.file", "log", "log.level"]

  it("report an undocumented leaf, even when its container is named", () => {
    expect(drift(schemaKeys, table("`service.baseUrl`", "`service.token`", "`log.level`"))).toEqual({
      missing: ["service.token.env", "service.token.file"],
      unknown: []
    })
  })

  it("count a container as documented through any key below it", () => {
    expect(drift(schemaKeys, table("`service.baseUrl`", "`service.token.{env,file}`", "`log.level`")))
      .toEqual({ missing: [], unknown: [] })
  })

  it("report keys the schema does not have, with their line", () => {
    const result = drift(schemaKeys, table("`service.{baseUrl,baseURL}`", "`service.token.{env,file}`", "`log.level`", "`buttons[]`"))
    expect(result).toEqual({ missing: [], unknown: [{ key: "service.baseURL", line: 5 }, { key: "buttons[]", line: 8 }] })
    expect(formatDrift("c.md", result)).toBe(
      "2 key(s) in c.md that the schema does not have:\n  service.baseURL (c.md:5)\n  buttons[] (c.md:8)"
    )
  })

  it("do not let an unknown key stand for its container", () => {
    expect(drift(schemaKeys, table("`service.baseUrl`", "`service.token.{env,file}`", "`log.colour`")).missing).toEqual(["log", "log.level"])
  })
})

describe("docs/configuration.md", () => {
  const page = fileURLToPath(new URL("../../docs/configuration.md", import.meta.url))
  const schemaKeys = schemaKeyPaths(configJsonSchema())

  it("the schema's key paths are found (sanity check of the walk)", () => {
    expect(schemaKeys).toEqual(expect.arrayContaining([
      "service", "service.baseUrl", "service.token.env", "places[].scoreboard.serial.path",
      "places[].teams.home.overlay.position.horizontal", "buttons[].gpio.lines"
    ]))
  })

  it("documents every key of the config schema and no other", () => {
    expect(existsSync(page), "docs/configuration.md is the configuration reference and must exist").toBe(true)
    const result = compareReference(schemaKeys, referenceKeys(parseMarkdown(readFileSync(page, "utf8"))))
    if (result.missing.length + result.unknown.length > 0) expect.fail(formatDrift("docs/configuration.md", result))
  })
})
