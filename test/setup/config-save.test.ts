import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { resources } from "../support/resources.ts"
import { keptDirectory } from "../../src/setup/config/kept-versions.ts"
import { journalPath } from "../../src/setup/config/change-journal.ts"
import { configBench, json, placesOf } from "./config-support.ts"

/**
 * Saving from the setup page, on real files in temp dirs: the example configs full of comments,
 * edited through the routes as the server calls them.
 */

const res = resources()
afterEach(() => res.release())

const read = (path: string) => readFileSync(path, "utf8")

/** The lines of `after` not in `before` and the reverse: what a save changed (a line also found elsewhere, as `    clicks:`, is not seen). */
const changedLines = (before: string, after: string) => {
  const old = before.split("\n")
  const now = after.split("\n")
  return { added: now.filter((line) => !old.includes(line)), removed: old.filter((line) => !now.includes(line)) }
}

describe("saving a place (comments and other places kept)", () => {
  it("one key changed in a commented config: only its line differs, every comment survives, the old file is kept", async () => {
    const bench = configBench(res, "bodet-hall-tcp.yaml")
    const path = bench.environment.configPath
    const before = read(path)
    const config = json(await bench.call("GET", "/api/config"))
    expect(config.valid).toBe(true)
    const place = structuredClone(config.places[0])
    place.scoreboard.tcp.from = "192.168.10.12"

    const preview = json(await bench.call("POST", "/api/preview", { fingerprint: config.fingerprint, replaces: "court-a", place, buttons: [] }))
    expect(preview.valid).toBe(true)
    expect(preview.diff).toContain("-        from: 192.168.10.11              # the console")
    expect(preview.diff).toContain("+        from: 192.168.10.12              # the console")
    expect(read(path)).toBe(before)

    const saved = await bench.call("POST", "/api/save", { fingerprint: config.fingerprint, replaces: "court-a", place, buttons: [] })
    expect(saved.status).toBe(200)
    const after = read(path)
    expect(after).toBe(before.replace("from: 192.168.10.11 ", "from: 192.168.10.12 "))
    expect(json(saved).fingerprint).toBe(json(await bench.call("GET", "/api/config")).fingerprint)
    expect(read(json(saved).kept)).toBe(before)
    expect(json(saved).reload).toEqual({ ok: false, message: expect.stringContaining("no daemon to reload") })
  })

  it("a place rewritten in part: untouched keys keep their comments, the other places stay byte for byte", async () => {
    const bench = configBench(res, "buttons-all-sources.yaml")
    const path = bench.environment.configPath
    const before = read(path)
    const config = json(await bench.call("GET", "/api/config"))
    const place = structuredClone(config.places[3])
    place.actions[1].team = "home"
    place.name = "Padel 4 (glass)"
    delete place.clicks
    const button = structuredClone(config.buttons[3])
    button.mqtt.topics.push("zigbee2mqtt/court4-remote-2")

    const saved = await bench.call("POST", "/api/save", { fingerprint: config.fingerprint, replaces: "padel-4", place, buttons: [button] })
    expect(saved.status).toBe(200)
    const after = read(path)
    const padel4 = before.indexOf("  - key: padel-4")
    // Everything before the edited place but the one button line is as it was.
    expect(after.slice(0, after.indexOf("  - key: padel-4"))).toBe(before.slice(0, padel4).replace(
      "topics: [zigbee2mqtt/court4-remote]",
      "topics: [zigbee2mqtt/court4-remote, zigbee2mqtt/court4-remote-2]"
    ))
    expect(after).toContain("      - { source: court4-shelly, gesture: single, do: highlight }   # the referee's neutral button")
    expect(changedLines(before, after)).toEqual({
      added: ["      topics: [zigbee2mqtt/court4-remote, zigbee2mqtt/court4-remote-2]", "    name: Padel 4 (glass)", "      - { source: court4-remote, gesture: double, do: highlight, team: home }"],
      removed: ["      topics: [zigbee2mqtt/court4-remote]", "    name: Padel 4", "      - { source: court4-remote, gesture: double, do: highlight, team: away }", "      feedbackTopic: scorebridge/padel-4/feedback   # a display or LED can show each press's outcome"]
    })
    expect(placesOf(after)[3]).toEqual(place)
  })

  it("a new place goes at the end of places:, and everything before it stays byte for byte", async () => {
    const bench = configBench(res, "bodet-hall-tcp.yaml")
    const before = read(bench.environment.configPath)
    const config = json(await bench.call("GET", "/api/config"))
    const place = { key: "court-d", name: "Court D", sport: "volleyball", scoreboard: { protocol: "json", udp: { listen: "0.0.0.0:4003" }, options: { fields: { home: "h", away: "a" } } } }
    const saved = await bench.call("POST", "/api/save", { fingerprint: config.fingerprint, replaces: null, place, buttons: [] })
    expect(saved.status).toBe(200)
    const after = read(bench.environment.configPath)
    expect(after.startsWith(before.trimEnd())).toBe(true)
    expect(placesOf(after).map((p) => p.key)).toEqual(["court-a", "court-b", "court-c", "court-d"])
    const journal = read(journalPath(bench.environment)).trim().split("\n").map((line) => JSON.parse(line))
    expect(journal).toEqual([{ at: expect.any(String), session: "browser-1", change: "place court-d added", places: ["court-d"], keys: ["places[court-d]"] }])
  })

  it("a config that does not exist yet starts from the skeleton with its comment header", async () => {
    const bench = configBench(res)
    const config = json(await bench.call("GET", "/api/config"))
    expect(config).toMatchObject({ fingerprint: "absent", valid: false, places: [], service: { baseUrl: "https://api.example.com" } })
    const place = { key: "court-1", sport: "basketball", scoreboard: { protocol: "json", udp: { listen: "0.0.0.0:4002" }, options: { fields: { home: "h", away: "a" } } } }
    const saved = await bench.call("POST", "/api/save", { fingerprint: "absent", replaces: null, place, buttons: [], service: { baseUrl: "https://highlights.example.net", companyKey: "venue-1" } })
    expect(saved.status).toBe(200)
    expect(json(saved).kept).toBeNull()
    const text = read(bench.environment.configPath)
    expect(text).toMatch(/^# scorebridge configuration, started by `scorebridge setup`/u)
    expect(text).toContain("    credential: token                    # /etc/scorebridge/credentials/token")
    expect(json(await bench.call("GET", "/api/config"))).toMatchObject({ valid: true, service: { baseUrl: "https://highlights.example.net", companyKey: "venue-1" } })
    expect(statSync(bench.environment.configPath).mode & 0o777).toBe(0o644)
  })
})

describe("nothing written unless it is right", () => {
  it("a broken edit (baudRate fast, an unknown protocol) is refused with its line and never reaches the disk", async () => {
    const bench = configBench(res, "buttons-all-sources.yaml")
    const path = bench.environment.configPath
    const before = read(path)
    const config = json(await bench.call("GET", "/api/config"))
    const serial = { key: "padel-5", sport: "padel", scoreboard: { protocol: "lines", serial: { path: "/dev/serial/by-id/x", baudRate: "fast" }, options: { pattern: "^(?<home>\\d+)-(?<away>\\d+)$" } } }
    const unknown = { key: "padel-6", sport: "padel", scoreboard: { protocol: "no-such-console", serial: { path: "/dev/serial/by-id/y" } } }
    for (const place of [serial, unknown]) {
      const preview = json(await bench.call("POST", "/api/preview", { fingerprint: config.fingerprint, replaces: null, place, buttons: [] }))
      expect(preview.valid).toBe(false)
      const saved = await bench.call("POST", "/api/save", { fingerprint: config.fingerprint, replaces: null, place, buttons: [] })
      expect(saved.status).toBe(422)
      expect(json(saved).problems).toEqual(preview.problems)
      expect(json(saved).problems[0]).toMatchObject({ path: expect.stringMatching(/^places\[4\]\.scoreboard\.(serial\.baudRate|protocol)$/u), line: expect.any(Number) })
    }
    expect(read(path)).toBe(before)
    expect(existsSync(keptDirectory(bench.environment))).toBe(false)
    expect(existsSync(journalPath(bench.environment))).toBe(false)
    expect(readdirSync(bench.dir).sort()).toEqual(["config.yaml"])
  })

  it("a file changed since the page read it (a hand edit) → 409, nothing written", async () => {
    const bench = configBench(res, "bodet-hall-tcp.yaml")
    const path = bench.environment.configPath
    const config = json(await bench.call("GET", "/api/config"))
    const handEdited = `${read(path)}\n# a note added by hand\n`
    writeFileSync(path, handEdited)
    const place = { ...config.places[1], name: "Court B (new)" }
    const saved = await bench.call("POST", "/api/save", { fingerprint: config.fingerprint, replaces: "court-b", place, buttons: [] })
    expect(saved.status).toBe(409)
    expect(json(saved).fingerprint).toBe(json(await bench.call("GET", "/api/config")).fingerprint)
    expect(read(path)).toBe(handEdited)
    expect(existsSync(keptDirectory(bench.environment))).toBe(false)
  })

  it("two browsers saving from the same page at once: one is saved, the other gets 409", async () => {
    const bench = configBench(res, "bodet-hall-tcp.yaml")
    const config = json(await bench.call("GET", "/api/config"))
    const edits = ["Court A (one)", "Court A (two)"].map((name) => ({ fingerprint: config.fingerprint, replaces: "court-a", place: { ...config.places[0], name }, buttons: [] }))
    const replies = await Promise.all(edits.map((edit, index) => bench.call("POST", "/api/save", edit, `browser-${index}`)))
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409])
    const winner = replies.findIndex((reply) => reply.status === 200)
    expect(placesOf(read(bench.environment.configPath))[0]!.name).toBe(edits[winner]!.place.name)
    expect(readdirSync(keptDirectory(bench.environment))).toHaveLength(1)
  })

  it("the file keeps its mode; only the last 20 versions are kept, each the bytes before its save", async () => {
    const bench = configBench(res, "bodet-hall-tcp.yaml")
    const path = bench.environment.configPath
    chmodSync(path, 0o640)
    const versions: Array<string> = []
    for (let save = 1; save <= 22; save++) {
      const config = json(await bench.call("GET", "/api/config"))
      versions.push(read(path))
      const reply = await bench.call("POST", "/api/save", { fingerprint: config.fingerprint, replaces: "court-c", place: { ...config.places[2], name: `Court C #${save}` }, buttons: [] })
      expect(reply.status).toBe(200)
    }
    expect(statSync(path).mode & 0o777).toBe(0o640)
    const kept = readdirSync(keptDirectory(bench.environment)).sort()
    expect(kept).toHaveLength(20)
    expect(kept.map((name) => read(join(keptDirectory(bench.environment), name)))).toEqual(versions.slice(2))
    expect(json(await bench.call("GET", "/api/journal")).changes).toHaveLength(22)
  })
})
