import { randomBytes } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { freePort } from "../../scripts/support/free-port.ts"
import { resources } from "../support/resources.ts"
import type { Answer } from "./setup-http.ts"
import { ask } from "./setup-http.ts"
import { journalFile, jsonOf, keptVersions, type SetupProcess, startSetupProcess } from "./setup-process-support.ts"

/**
 * The token stored through the page, then every route the server has asked, a preview, a save and
 * a refused edit that carries it: the token reaches the service (the service's places come back)
 * and nothing else — no body or header, no line the process printed, no file of the config's
 * directory but the credential itself, nothing given to syslog.
 */
const res = resources()
afterEach(() => res.release())

/** Every GET the server answers (the listening sessions' are asked below, with their ids). */
const getRoutes = [
  "/", "/setup.js", "/setup.css", "/api/config", "/api/checks", "/api/journal", "/api/service-places", "/api/consoles",
  "/api/serial-ports", "/api/daemon", "/api/buttons/devices", "/api/nothing-here"
]

/** Every file under the config's directory but the stored credential, with its text. */
const filesBesideTheCredential = (served: SetupProcess) =>
  readdirSync(served.configDirectory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => path !== join(served.configDirectory, "credentials", "token"))

const seen = (answers: Array<{ readonly what: string; readonly answer: Answer }>) => (what: string) => async (answer: Promise<Answer>) => {
  const got = await answer
  answers.push({ what, answer: got })
  return got
}

/** A listening session on a free loopback port and a button capture on a broker nobody runs: their GETs answer too. */
const askSessions = async (served: SetupProcess, cookie: string, keep: ReturnType<typeof seen>) => {
  const listen = await keep("POST /api/listen")(served.post("/api/listen", cookie, {
    protocol: "bodet-scorepad",
    sport: "unihockey",
    link: { tcp: { listen: `127.0.0.1:${await freePort()}` } }
  }))
  expect(listen.status, listen.body).toBe(200)
  await keep("GET /api/listen/:id")(served.get(`/api/listen/${jsonOf(listen).id}`, cookie))
  const buttons = await keep("POST /api/buttons/listen")(served.post("/api/buttons/listen", cookie, { sources: { mqtt: { url: `mqtt://127.0.0.1:${await freePort()}` } } }))
  if (buttons.status === 200) await keep("GET /api/buttons/listen/:id")(served.get(`/api/buttons/listen/${jsonOf(buttons).id}`, cookie))
}

describe("scorebridge setup (the process): the token appears nowhere", () => {
  it("stored through POST /api/token, used for the service's places, in no answer, printed line, file or syslog line", async () => {
    const token = `sbtok-${randomBytes(12).toString("hex")}-Distinctive`
    // Syslog on, as the product runs (a test worker may have turned it off for in-process saves).
    const served = await startSetupProcess(res, "setup-token-nowhere", { tokens: [token], env: { SCOREBRIDGE_SETUP_SYSLOG: undefined } })
    const cookie = await served.logIn()
    const answers: Array<{ readonly what: string; readonly answer: Answer }> = []
    const keep = seen(answers)

    const stored = await keep("POST /api/token")(served.post("/api/token", cookie, { token }))
    expect(jsonOf(stored)).toEqual({ stored: true })
    const config = jsonOf(await keep("GET /api/config")(served.get("/api/config", cookie)))
    expect(config.tokenStored).toBe(true)
    const place = { ...config.places[0], name: "Court A (token test)" }
    const edit = { fingerprint: config.fingerprint, replaces: "court-a", place, buttons: [] }
    const preview = jsonOf(await keep("POST /api/preview")(served.post("/api/preview", cookie, edit)))
    expect(preview.diff).toContain("+    credential: token")
    const saved = await keep("POST /api/save")(served.post("/api/save", cookie, edit))
    expect(saved.status, saved.body).toBe(200)

    // An edit that carries the token where a console's name goes: refused, and its problems and diff do not repeat it.
    const carrying = { fingerprint: jsonOf(saved).fingerprint, replaces: "court-a", place: { ...place, scoreboard: { ...place.scoreboard, protocol: token } }, buttons: [] }
    const carryingPreview = jsonOf(await keep("POST /api/preview (token as a value)")(served.post("/api/preview", cookie, carrying)))
    expect(carryingPreview.valid).toBe(false)
    expect((await keep("POST /api/save (token as a value)")(served.post("/api/save", cookie, carrying))).status).toBe(422)

    for (const path of getRoutes) await keep(`GET ${path}`)(served.get(path, cookie))
    await keep("GET / without a session")(ask(served.port, {}))
    await askSessions(served, cookie, keep)

    // The token did its work: the service answered with the organization's places.
    const places = answers.find(({ what }) => what === "GET /api/service-places")!.answer
    expect(jsonOf(places).places.map((p: { key: string }) => p.key)).toEqual(["court-a", "court-b"])
    expect(jsonOf(answers.find(({ what }) => what === "GET /api/journal")!.answer).changes.map((c: { change: string }) => c.change))
      .toEqual(["token replaced", "place court-a edited"])

    for (const { what, answer } of answers) {
      expect(answer.body, what).not.toContain(token)
      expect(JSON.stringify(answer.headers), what).not.toContain(token)
    }
    expect(served.setup.stdout()).not.toContain(token)
    expect(served.setup.stderr()).not.toContain(token)
    expect(readFileSync(join(served.configDirectory, "credentials", "token"), "utf8")).toBe(`${token}\n`)
    const files = filesBesideTheCredential(served)
    expect(files).toEqual(expect.arrayContaining([served.configPath, journalFile(served), ...keptVersions(served)]))
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toContain(token)
    // Syslog was given each change (the product's behaviour), never the token.
    expect(served.syslog()).toHaveLength(2)
    for (const line of served.syslog()) {
      expect(line).toMatch(/^-t scorebridge-setup -- \{/u)
      expect(line).not.toContain(token)
    }
  })
})
