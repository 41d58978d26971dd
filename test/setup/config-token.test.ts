import { spawn } from "node:child_process"
import { once } from "node:events"
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { resources } from "../support/resources.ts"
import { journalPath } from "../../src/setup/config/change-journal.ts"
import { configBench, json } from "./config-support.ts"

/** The token through the setup page: stored as scorebridge-set-token stores it, and never shown, journaled or diffed. */

const res = resources()
afterEach(() => res.release())

const token = "sbtok-Distinctive-7f3a9c21e0QX"

/** Every file under `dir` but the credential itself, with its text. */
const filesUnder = (dir: string): Array<{ readonly path: string; readonly text: string }> =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !path.endsWith(join("credentials", "token")))
    .map((path) => ({ path, text: readFileSync(path, "utf8") }))

describe("the token on the setup page", () => {
  it("stored trimmed in credentials/token (dir 0700, file 0600); the next save points service.token at it; the value is in no reply, file, journal or diff", async () => {
    const bench = configBench(res, "bodet-hall-tcp.yaml")
    const stored = await bench.call("POST", "/api/token", { token: `  ${token}\r\n` })
    expect(stored).toEqual({ status: 200, json: { stored: true } })
    const file = join(bench.environment.credentialsDirectory, "token")
    expect(readFileSync(file, "utf8")).toBe(`${token}\n`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(bench.environment.credentialsDirectory).mode & 0o777).toBe(0o700)

    const config = json(await bench.call("GET", "/api/config"))
    expect(config.tokenStored).toBe(true)
    const place = { ...config.places[0], name: "Court A (renamed)" }
    const preview = json(await bench.call("POST", "/api/preview", { fingerprint: config.fingerprint, replaces: "court-a", place, buttons: [] }))
    expect(preview.diff).toContain("-    env: SCOREBRIDGE_TOKEN")
    expect(preview.diff).toContain("+    credential: token")
    const saved = await bench.call("POST", "/api/save", { fingerprint: config.fingerprint, replaces: "court-a", place, buttons: [] }, "browser-7")
    expect(saved.status).toBe(200)
    expect(readFileSync(bench.environment.configPath, "utf8")).toContain("  token:\n    credential: token\n  companyKey: floorball-hall\n")

    const journal = readFileSync(journalPath(bench.environment), "utf8").trim().split("\n").map((line) => JSON.parse(line))
    expect(journal.map((entry) => [entry.session, entry.change])).toEqual([["browser-1", "token replaced"], ["browser-7", "place court-a edited"]])
    expect(journal[1].keys).toEqual(expect.arrayContaining(["service.token.credential", "places[court-a].name"]))
    expect(json(await bench.call("GET", "/api/journal")).changes).toEqual(journal)

    for (const reply of bench.replies) expect(reply).not.toContain(token)
    for (const { path, text } of filesUnder(bench.dir)) expect(text, path).not.toContain(token)
  })

  it("a token replaced on a bridge that already reads it restarts the daemon at once, as scorebridge-set-token does", async () => {
    // A stand-in daemon: the reload is a SIGHUP to its pid, which ends a `sleep` by that very signal.
    const daemon = spawn("sleep", ["60"], { stdio: "ignore" })
    res.defer(() => daemon.kill("SIGKILL"))
    const ended = once(daemon, "exit")
    // This example's service.token is { credential: token }: the running bridge reads the stored file.
    const bench = configBench(res, "daktronics-basketball-usb.yaml", { _tag: "pid", pid: daemon.pid! })
    const stored = json(await bench.call("POST", "/api/token", { token }))
    expect(stored).toMatchObject({ stored: true, reload: { ok: true } })
    expect(await ended).toEqual([null, "SIGHUP"])
    for (const reply of bench.replies) expect(reply).not.toContain(token)
  })

  it("a token that is not one printable word → 400 naming the problem, never echoing it; nothing stored", async () => {
    const bench = configBench(res, "bodet-hall-tcp.yaml")
    for (const bad of [`${token} ${token}`, `${token}\u00e9`, "   ", 42]) {
      const reply = await bench.call("POST", "/api/token", { token: bad })
      expect(reply.status).toBe(400)
      expect(json(reply).error).toMatch(/spaces|no token|as text/u)
    }
    for (const reply of bench.replies) expect(reply).not.toContain(token)
    expect(json(await bench.call("GET", "/api/config")).tokenStored).toBe(false)
    expect(readdirSync(bench.dir)).toEqual(["config.yaml"])
  })

  it("a token pasted into the config by hand is shown nowhere: not in the problems, not in the diff", async () => {
    const bench = configBench(res, "bodet-hall-tcp.yaml")
    const path = bench.environment.configPath
    writeFileSync(path, readFileSync(path, "utf8").replace(/  token:\n    env: SCOREBRIDGE_TOKEN[^\n]*\n/u, `  token: ${token}   # pasted\n`))
    expect(await bench.call("POST", "/api/token", { token })).toMatchObject({ status: 200 })
    const config = json(await bench.call("GET", "/api/config"))
    expect(config.valid).toBe(false)
    expect(config.problems).toEqual([expect.objectContaining({ path: "service.token" })])
    const preview = json(await bench.call("POST", "/api/preview", { fingerprint: config.fingerprint, replaces: "court-a", place: { ...config.places[0], name: "A" }, buttons: [] }))
    // Context of the diff: the token line is redacted before the diff is made; the save sets the credential.
    expect(preview.diff).toContain("-  token: [redacted]   # pasted")
    expect(preview.valid).toBe(true)
    for (const reply of bench.replies) expect(reply).not.toContain(token)
  })
})
