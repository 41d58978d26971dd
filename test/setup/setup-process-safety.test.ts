import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { resources } from "../support/resources.ts"
import { journalFile, jsonOf, keptVersions, startSetupProcess, unit } from "./setup-process-support.ts"

/**
 * What a save does to the file, against `scorebridge setup` as a process over loopback HTTP: two
 * browsers cannot overwrite each other, a broken edit never reaches the disk, a hand-commented
 * config keeps its comments. The in-process tests (config-save.test.ts) cover the routes' every
 * case; these prove the process that ships does the same.
 */
const res = resources()
afterEach(() => res.release())

// The saves here stay out of syslog (change-journal.ts); the stand-in logger proves it is not called.
const quiet = { env: { SCOREBRIDGE_SETUP_SYSLOG: "off" } }

const read = (path: string) => readFileSync(path, "utf8")
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** A save's body: court-a as GET /api/config gave it, with `change` made. */
const courtA = (config: any, change: (place: any) => void) => {
  const place = structuredClone(config.places[0])
  expect(place.key).toBe("court-a")
  change(place)
  return { fingerprint: config.fingerprint, replaces: "court-a", place, buttons: [] }
}

describe("scorebridge setup (the process): a save and the file", () => {
  it("two browsers save the same court from the same file at the same moment: one 200, the other 409, the file the winner's, one kept version", async () => {
    const served = await startSetupProcess(res, "setup-two-browsers", quiet)
    const browsers = [await served.logIn(), await served.logIn()]
    const before = read(served.configPath)
    const seen = await Promise.all(browsers.map(async (cookie) => jsonOf(await served.get("/api/config", cookie))))
    expect(seen[1].fingerprint).toBe(seen[0].fingerprint)
    const names = ["Court A (first browser)", "Court A (second browser)"]
    const answers = await Promise.all(browsers.map((cookie, i) => served.post("/api/save", cookie, courtA(seen[i], (place) => (place.name = names[i])))))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    const winner = answers.findIndex((answer) => answer.status === 200)
    const after = read(served.configPath)
    expect(after).toBe(before.replace("    name: Court A\n", `    name: ${names[winner]}\n`))
    const saved = jsonOf(answers[winner]!)
    expect(saved.fingerprint).toBe(sha256(after))
    // The other browser is told the file changed, with the fingerprint to read it again by.
    const refused = jsonOf(answers[1 - winner]!)
    expect(refused.error).toMatch(/changed/u)
    expect(refused.fingerprint).toBe(saved.fingerprint)
    expect(keptVersions(served)).toEqual([saved.kept])
    expect(read(saved.kept)).toBe(before)
    const journal = read(journalFile(served)).trim().split("\n").map((line) => JSON.parse(line))
    expect(journal.map((entry) => [entry.session, entry.change])).toEqual([[`session ${winner + 1} from 127.0.0.1`, "place court-a edited"]])
    expect(served.reloads()).toEqual([`reload-or-restart ${unit}`])
    expect(served.syslog()).toEqual([])
  })

  it("a broken edit never reaches the disk: 422 with the problems, the file's bytes as they were, no kept version, no journal line, no reload", async () => {
    const served = await startSetupProcess(res, "setup-broken-edit", quiet)
    const cookie = await served.logIn()
    const before = read(served.configPath)
    const config = jsonOf(await served.get("/api/config", cookie))
    expect(config.valid).toBe(true)
    const broken: ReadonlyArray<{ readonly what: string; readonly body: unknown; readonly problem: RegExp }> = [
      { what: "a console nobody knows", body: courtA(config, (place) => (place.scoreboard.protocol = "no-such-console")), problem: /no-such-console/u },
      { what: "a negative quiet time", body: courtA(config, (place) => (place.scoreboard.tcp.quietSeconds = -5)), problem: /quietSeconds/u },
      { what: "an option the console does not have", body: courtA(config, (place) => (place.scoreboard.options.colour = "red")), problem: /colour/u },
      { what: "a second place with court-b's key", body: { ...courtA(config, (place) => (place.key = "court-b")), replaces: null }, problem: /court-b/u }
    ]
    for (const { what, body, problem } of broken) {
      const preview = jsonOf(await served.post("/api/preview", cookie, body))
      expect(preview.valid, what).toBe(false)
      const answer = await served.post("/api/save", cookie, body)
      expect(answer.status, `${what}: ${answer.body}`).toBe(422)
      const refused = jsonOf(answer)
      expect(refused.problems.length, what).toBeGreaterThan(0)
      expect(JSON.stringify(refused.problems), what).toMatch(problem)
      expect(refused.problems, what).toEqual(preview.problems)
      expect(read(served.configPath), what).toBe(before)
    }
    expect(keptVersions(served)).toEqual([])
    expect(existsSync(journalFile(served))).toBe(false)
    expect(jsonOf(await served.get("/api/journal", cookie)).changes).toEqual([])
    expect(served.reloads()).toEqual([])
    expect(jsonOf(await served.get("/api/config", cookie)).fingerprint).toBe(config.fingerprint)
  })

  it("a hand-commented config keeps every comment through saves: an edited key's line only, then a new place at the end", async () => {
    const served = await startSetupProcess(res, "setup-comments", quiet)
    const cookie = await served.logIn()
    const before = read(served.configPath)
    const comments = before.split("\n").filter((line) => line.includes("#"))
    expect(comments.length).toBeGreaterThan(30)
    const config = jsonOf(await served.get("/api/config", cookie))
    const edit = courtA(config, (place) => (place.scoreboard.tcp.from = "192.168.10.12"))
    const preview = jsonOf(await served.post("/api/preview", cookie, edit))
    expect(preview.diff).toContain("-        from: 192.168.10.11              # the console; another device connecting is closed, not taken for it")
    expect(preview.diff).toContain("+        from: 192.168.10.12              # the console; another device connecting is closed, not taken for it")
    const saved = await served.post("/api/save", cookie, edit)
    expect(saved.status, saved.body).toBe(200)
    const edited = read(served.configPath)
    expect(edited).toBe(before.replace("from: 192.168.10.11 ", "from: 192.168.10.12 "))

    const added = {
      fingerprint: jsonOf(saved).fingerprint,
      replaces: null,
      place: { key: "court-d", name: "Court D", sport: "basketball", scoreboard: { protocol: "json", udp: { listen: "0.0.0.0:4003" }, options: { fields: { home: "h", away: "a" } } } },
      buttons: []
    }
    const again = await served.post("/api/save", cookie, added)
    expect(again.status, again.body).toBe(200)
    const after = read(served.configPath)
    // Everything that was there is there byte for byte, the new court after it.
    expect(after.startsWith(edited.trimEnd())).toBe(true)
    expect(after).toMatch(/\n {2}- key: court-d\n {4}name: Court D\n/u)
    for (const line of comments.map((text) => text.replace("192.168.10.11", "192.168.10.12"))) expect(after).toContain(line)
    expect(keptVersions(served).map(read)).toEqual([before, edited])
    expect(served.reloads()).toHaveLength(2)
    expect(served.syslog()).toEqual([])
  })
})
