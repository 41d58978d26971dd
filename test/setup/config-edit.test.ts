import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { parseDocument } from "yaml"
import { editConfig, isRefused } from "../../src/setup/config/config-edit.ts"

/**
 * The edit on every example config (each written by hand, comments everywhere): each place
 * renamed and given a new key inside, done in place (not the yaml package's reprint of the
 * whole file), every line outside the place as it was.
 */

const examples = join(import.meta.dirname, "../../config")
const configs = readdirSync(examples).filter((name) => name.endsWith(".yaml"))

describe("editing each place of each example config in place", () => {
  it.each(configs)("%s", (name) => {
    const text = readFileSync(join(examples, name), "utf8")
    const places: Array<Record<string, unknown>> = parseDocument(text).toJS().places
    for (const place of places) {
      const edited = { ...place, name: `${String(place["name"] ?? place["key"])} (edited)`, clicks: { ...(place["clicks"] as object | undefined), beforeSeconds: 12 } }
      const result = editConfig(text, { replaces: String(place["key"]), place: edited, buttons: [], tokenCredential: false })
      if (isRefused(result)) throw new Error(result.reason)
      expect(result.rewritten, `${name} ${String(place["key"])}`).toBe(false)
      expect(parseDocument(result.text).toJS().places).toEqual(places.map((p) => (p === place ? edited : p)))
      const kept = text.split("\n").filter((line) => !result.text.split("\n").includes(line))
      // Only the place's own name and clicks lines go (a line repeated elsewhere is not counted).
      expect(kept.every((line) => /^\s+(name|beforeSeconds):/u.test(line)), kept.join("\n")).toBe(true)
    }
  })

  it("a place no longer in the file is refused, naming it; a file that is not YAML is refused", () => {
    const text = readFileSync(join(examples, "two-courts.yaml"), "utf8")
    expect(editConfig(text, { replaces: "court-9", place: { key: "court-9" }, buttons: [], tokenCredential: false }))
      .toEqual({ _tag: "EditRefused", reason: expect.stringContaining(`no place "court-9"`) })
    expect(editConfig("places: [\n", { replaces: null, place: { key: "a" }, buttons: [], tokenCredential: false }))
      .toEqual({ _tag: "EditRefused", reason: expect.stringMatching(/^config.yaml is not valid YAML \(line \d+\)/u) })
  })
})
