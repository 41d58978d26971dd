import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { demoSeed, loadSeed, startSimulator, type RunningSimulator } from "../../simulator/index.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const dir = tempDir("sim-seed")
const file = (name: string, text: string) => { const path = join(dir, name); writeFileSync(path, text); return path }

let sim: RunningSimulator | undefined
afterEach(async () => { await sim?.close(); sim = undefined })

describe("seeds", () => {
  it("loads YAML and JSON seeds", () => {
    const yaml = file("venue.yaml", [
      "organizations:",
      "  - key: club",
      "    name: Club",
      "    tokens: [t1]",
      "    places:",
      "      - { key: c1, name: Centre court, sport: padel, timeZoneID: Europe/Paris }",
      "      - { key: c2, name: Court 2, sport: padel, cameras: [north, south] }"
    ].join("\n"))
    expect(loadSeed(yaml).organizations[0]?.places).toEqual([
      { key: "c1", name: "Centre court", sport: "padel", timeZoneID: "Europe/Paris" },
      { key: "c2", name: "Court 2", sport: "padel", cameras: ["north", "south"] }
    ])
    expect(loadSeed(file("demo.json", JSON.stringify(demoSeed)))).toEqual(demoSeed)
  })

  it("names the file and the field in errors", () => {
    const bad = file("bad.json", JSON.stringify({ organizations: [{ key: "o", name: "O", tokens: ["t"], places: [{ key: "p", name: "P", sport: "chess" }] }] }))
    expect(() => loadSeed(bad)).toThrow(new RegExp(`${bad}.*organizations\\[0\\]\\.places\\[0\\]\\.sport`))
    const dup = file("dup.json", JSON.stringify({ organizations: [{ key: "o", name: "O", tokens: ["t", "t"], places: [] }] }))
    expect(() => loadSeed(dup)).toThrow(/dup\.json.*tokens\[1\]/)
    const twice = file("twice.json", JSON.stringify({ organizations: [{ key: "o", name: "O", tokens: ["t"], places: [{ key: "p", name: "P", sport: "padel", cameras: ["a", "b", "a"] }] }] }))
    expect(() => loadSeed(twice)).toThrow(/twice\.json.*places\[0\]\.cameras\[2\]: duplicate camera "a"/)
    expect(() => loadSeed(join(dir, "missing.yaml"))).toThrow(/missing\.yaml/)
  })

  it("serves the demo seed by default", async () => {
    sim = await startSimulator()
    const answer = await fetch(`${sim.url}/public/places?companyKey=demo-org`, { headers: { authorization: "Bearer demo-token" } })
    const body = await answer.json() as { places: Array<{ key: string; sport: string }> }
    expect(body.places.map((p) => [p.key, p.sport])).toEqual([["court-1", "tennis"], ["court-2", "volleyball"]])
  })
})
