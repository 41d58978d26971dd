import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { protocols } from "../../adapters/registry.ts"
import { overlayCarriers } from "../../src/clicks/overlay-preview.ts"
import { checkConfig } from "../../src/config/check.ts"
import { parseConfig } from "../../src/config/load.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/** `clicks.overlay`, the overlay of clicks about no team (a finish, a press with team: none): checked as a team's is. */

process.env["SCOREBRIDGE_TOKEN"] ??= "clicks-overlay-token"

const dir = tempDir("clicks-overlay")
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const pool = (overlay: ReadonlyArray<string>) => [
  "service: { baseUrl: https://api.example.com, token: { env: SCOREBRIDGE_TOKEN } }",
  "buttons: [{ name: desk, type: input-event, device: /dev/input/event3 }]",
  "places:",
  "  - key: pool",
  "    sport: swimming",
  "    scoreboard: { protocol: lines, serial: { path: /dev/ttyUSB0 }, options: { delimiter: \",\", fields: [home, away, period] } }",
  "    autoHighlights: [{ rule: finish }]",
  "    actions: [{ source: desk, gesture: single, do: highlight }]",
  "    clicks:",
  "      overlay:",
  ...overlay.map((line) => `        ${line}`),
  ""
].join("\n")

const checked = (name: string, text: string) =>
  Effect.gen(function*() {
    const file = join(dir, name)
    writeFileSync(file, text)
    return { file, result: yield* checkConfig(file) }
  })

describe("clicks.overlay", () => {
  it.effect("takes the swimmer's live fields, and says the no-team press carries it", () =>
    Effect.gen(function*() {
      const { result } = yield* checked("good.yaml", pool([
        "templateSource: https://cdn.example.com/pool/finish.html",
        "values: { line: \"Lane {{lane}} · {{place}} · {{time}} · E{{event}} H{{heat}} {{swimmer}}\" }",
        "widthPercentOfWidth: 30"
      ]))
      assert.isTrue(result.ok, result.ok ? "" : result.report)
      assert.include(result.ok ? result.summary : "", "highlight (no team) with template overlay")
    }))

  it.effect("is what overlay-preview says the no-team press and the finishes carry", () =>
    Effect.gen(function*() {
      const { config } = yield* parseConfig(pool([
        "imageSource: https://cdn.example.com/pool/logo.png",
        "heightPercentOfHeight: 8"
      ]), "pool.yaml", protocols)
      assert.deepStrictEqual(overlayCarriers(config.places, "pool", "home"), [
        "No press or auto-highlight at pool is for the home team yet.",
        "With pool's clicks.overlay instead:",
        "  press desk (any button) single (team none)",
        "  auto-highlight finish (about no team)"
      ])
    }))

  it.effect("names an unknown live field at its value, listing the swimmer's among the known", () =>
    Effect.gen(function*() {
      const { file, result } = yield* checked("unknown.yaml", pool([
        "templateSource: https://cdn.example.com/pool/finish.html",
        "values: { line: \"{{lane}} {{swimmerName}}\" }",
        "widthPercentOfWidth: 30"
      ]))
      const report = result.ok ? "" : result.report
      assert.include(report, `${file}:12:`)
      assert.include(report, "places[0].clicks.overlay.values.line: unknown live field {{swimmerName}}")
      assert.include(report, "{{lane}}, {{place}}, {{time}}, {{event}}, {{heat}}, {{swimmer}}")
    }))

  it.effect("checks its local templateFile like a team's: a placeholder without a value is named at the key", () =>
    Effect.gen(function*() {
      const template = join(dir, "finish.html")
      writeFileSync(template, `<html><head><meta name="size" renderWidth="400" renderHeight="80"></head><body>[lane] [time]</body></html>`)
      const { file, result } = yield* checked("template.yaml", pool([
        "templateSource: https://cdn.example.com/pool/finish.html",
        `templateFile: ${template}`,
        "values: { lane: \"Lane {{lane}}\" }",
        "widthPercentOfWidth: 30"
      ]))
      const report = result.ok ? "" : result.report
      const line = report.split("\n").find((l) => l.startsWith(`${file}:12:`) && l.includes(` places[0].clicks.overlay.templateFile: ${template}: `))
      assert.isDefined(line, report)
      // The template's [time] has no value: the click would show it as written.
      assert.include(line, "time")
    }))
})
