import { networkInterfaces } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { daemonConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type ScorebridgeProcess, startScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { giveToSetupUser } from "../support/checkout-owner.ts"
import { resources } from "../support/resources.ts"
import { type Answer, ask, cookieFrom } from "./setup-http.ts"
import { printedCodes } from "./setup-process-support.ts"

/**
 * `scorebridge setup` as a process, asked over HTTP on loopback as a browser (or an attacker's
 * page) would: every wall the server puts before its routes. Host and Origin are set by hand,
 * which fetch forbids, so the requests go through node:http.
 */
const res = resources()
afterEach(() => res.release())


interface Started {
  readonly setup: ScorebridgeProcess
  readonly port: number
  readonly dir: string
}

const startSetup = async (extra: ReadonlyArray<string> = []): Promise<Started> => {
  const dir = tempDir("setup-security", res)
  const config = writeConfig(join(dir, "config.yaml"), daemonConfig({ service: { baseUrl: "http://127.0.0.1:9/" }, places: [] }))
  giveToSetupUser(dir)
  const port = await freePort()
  const setup = startScorebridge(["setup", "--config", config, "--port", String(port), ...extra])
  res.defer(() => setup.stop())
  await eventually("the setup server's first code", () => printedCodes(setup)[0], { timeoutMs: 15_000 })
  return { setup, port, dir }
}

const logIn = async ({ setup, port }: Started) => {
  const code = printedCodes(setup).at(-1)!
  const answer = await ask(port, { method: "POST", path: "/login", form: { code } })
  expect(answer.status).toBe(303)
  const cookie = cookieFrom(answer)
  return { answer, code, cookie }
}

const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

const expectSecurityHeaders = (answer: Answer) => {
  expect(answer.headers["content-security-policy"]).toBe(csp)
  expect(answer.headers["x-content-type-options"]).toBe("nosniff")
  // Not no-referrer: under it Chromium sends a form's POST (the login) with Origin: null (setup-process-browser.test.ts).
  expect(answer.headers["referrer-policy"]).toBe("same-origin")
  expect(answer.headers["cache-control"]).toBe("no-store")
  expect(answer.headers["x-frame-options"]).toBe("DENY")
}

describe("scorebridge setup: the walls before any route", () => {
  it("prints its address and a one-time code; without the code only the login page and its style answer", async () => {
    const { setup, port } = await startSetup()
    // Without --lan, loopback only.
    const printed = [...setup.stdout().matchAll(/^setup page: (.+)$/gmu)].map((match) => match[1])
    expect(printed.filter((url) => url !== `http://[::1]:${port}/`)).toEqual([`http://127.0.0.1:${port}/`])
    const login = await ask(port, {})
    expect(login.status).toBe(200)
    expect(login.body).toContain(`<form method="post" action="/login">`)
    expectSecurityHeaders(login)
    const style = await ask(port, { path: "/setup.css" })
    expect(style.status).toBe(200)
    expect(style.headers["content-type"]).toMatch(/^text\/css/u)
    expectSecurityHeaders(style)
    for (const path of ["/setup.js", "/api/config", "/api/checks", "/api/journal"]) {
      const refused = await ask(port, { path })
      expect(refused.status, path).toBe(401)
      expect(JSON.parse(refused.body).error).toMatch(/^log in first/u)
      expectSecurityHeaders(refused)
    }
    const post = await ask(port, { method: "POST", path: "/api/save", json: "{}" })
    expect(post.status).toBe(401)
    expect(post.body).not.toContain(printedCodes(setup)[0])
  })

  it("the printed code logs in once: a session cookie (HttpOnly, SameSite=Strict), the next code printed, the used one refused", async () => {
    const started = await startSetup()
    const { setup, port } = started
    const { answer, code, cookie } = await logIn(started)
    expect(answer.headers["location"]).toBe("/")
    expect(answer.headers["set-cookie"]).toEqual([expect.stringMatching(new RegExp(`^scorebridge_setup_${port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`, "u"))])
    expectSecurityHeaders(answer)
    const page = await ask(port, { cookie })
    expect(page.status).toBe(200)
    expect(page.body).not.toContain(`action="/login"`)
    expect((await ask(port, { path: "/setup.js", cookie })).status).toBe(200)
    const next = await eventually("the next code", () => printedCodes(setup)[1])
    expect(next).not.toBe(code)
    const again = await ask(port, { method: "POST", path: "/login", form: { code } })
    expect(again.status).toBe(401)
    expect(again.body).toContain("Wrong code")
    expect(again.headers["set-cookie"]).toBeUndefined()
    // A second browser logs in with the next code, lower case and without its dash as a phone may send it.
    const second = await ask(port, { method: "POST", path: "/login", form: { code: next.replace("-", "").toLowerCase() } })
    expect(second.status).toBe(303)
    await setup.waitForLog(/^session 1 from 127\.0\.0\.1 logged in$/u)
    await setup.waitForLog(/^session 2 from 127\.0\.0\.1 logged in$/u)
    const value = cookie.split("=")[1]!
    expect(setup.stdout()).not.toContain(value)
    // The codes are on their own printed lines and nowhere else.
    expect(setup.stdout().split(code).length).toBe(2)
  })

  it("POST /logout ends the session", async () => {
    const started = await startSetup()
    const { cookie } = await logIn(started)
    const out = await ask(started.port, { method: "POST", path: "/logout", cookie })
    expect(out.status).toBe(303)
    expect(String(out.headers["set-cookie"])).toMatch(new RegExp(`^scorebridge_setup_${started.port}=; .*Max-Age=0`, "u"))
    expect((await ask(started.port, { path: "/setup.js", cookie })).status).toBe(401)
    await started.setup.waitForLog(/^session 1 from 127\.0\.0\.1 logged out$/u)
  })

  it("refuses a Host it does not listen as (DNS rebinding), with or without a session", async () => {
    const started = await startSetup()
    const { port } = started
    const { cookie } = await logIn(started)
    for (const host of [`attacker.example:${port}`, "127.0.0.1", `127.0.0.1:${port + 1}`, `localhost.attacker.example:${port}`]) {
      const answer = await ask(port, { host, cookie, path: "/setup.js" })
      expect(answer.status, host).toBe(421)
      expect(answer.body).toMatch(/Host refused/u)
      expect(answer.body).not.toContain("scorebridge setup page")
      expectSecurityHeaders(answer)
    }
    const rebound = await ask(port, { host: `attacker.example:${port}`, method: "POST", path: "/login", form: { code: printedCodes(started.setup).at(-1)! } })
    expect(rebound.status).toBe(421)
    expect((await ask(port, { host: `localhost:${port}`, cookie, path: "/setup.js" })).status).toBe(200)
    expect((await ask(port, { host: `LOCALHOST:${port}`, cookie, path: "/setup.js" })).status).toBe(200)
  })

  it("refuses every non-GET whose Origin is not this server as reached (CSRF), and one without an Origin", async () => {
    const started = await startSetup()
    const { port, setup } = started
    const { cookie } = await logIn(started)
    const cases: ReadonlyArray<{ readonly origin: string | null; readonly what: string }> = [
      { origin: "http://attacker.example", what: "another site" },
      { origin: `http://127.0.0.1:${port + 1}`, what: "another port" },
      { origin: `https://127.0.0.1:${port}`, what: "another scheme" },
      { origin: `http://localhost:${port}`, what: "an allowed name that is not the request's Host" },
      { origin: "null", what: "an opaque origin" },
      { origin: null, what: "no Origin" }
    ]
    for (const { origin, what } of cases) {
      for (const path of ["/logout", "/api/save", "/login"]) {
        const answer = await ask(port, { method: "POST", path, origin, cookie, json: "{}" })
        expect(answer.status, `${what} ${path}`).toBe(403)
        expect(answer.body).toBe("cross-origin request refused\n")
      }
      const deleted = await ask(port, { method: "DELETE", path: "/api/listen/1", origin, cookie })
      expect(deleted.status, `${what} DELETE`).toBe(403)
    }
    // None of them logged out or logged in.
    expect((await ask(port, { path: "/setup.js", cookie })).status).toBe(200)
    expect(printedCodes(setup)).toHaveLength(2)
  })

  it("after 5 wrong codes in a minute from one address answers it 429 with Retry-After, and refuses it the right code too meanwhile", async () => {
    const { setup, port } = await startSetup()
    for (let i = 0; i < 5; i++) {
      const wrong = await ask(port, { method: "POST", path: "/login", form: { code: "AAAA-AAAA" } })
      expect(wrong.status, `wrong code ${i + 1}`).toBe(401)
    }
    const limited = await ask(port, { method: "POST", path: "/login", form: { code: "AAAA-AAAA" } })
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers["retry-after"])
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(limited.body).toContain("Too many wrong codes")
    const right = await ask(port, { method: "POST", path: "/login", form: { code: printedCodes(setup)[0]! } })
    expect(right.status).toBe(429)
    expect(right.headers["set-cookie"]).toBeUndefined()
    await setup.waitForLog(/too many wrong setup codes/u)
    expect(printedCodes(setup)).toHaveLength(1)
  })

  it("with --lan also listens on the machine's own network addresses (only loopback is connected to here)", async () => {
    const { setup, port } = await startSetup(["--lan"])
    const all = Object.values(networkInterfaces()).flatMap((infos) => infos ?? [])
    const lan = all.filter((info) => !info.internal && !/^fe[89ab][0-9a-f]:/iu.test(info.address)).map((info) => info.address)
    const printed = [...setup.stdout().matchAll(/^setup page: http:\/\/(.+):(\d+)\/$/gmu)].map((match) => match[1]!.replace(/^\[(.*)\]$/u, "$1"))
    expect(printed).toContain("127.0.0.1")
    expect(printed).toEqual(expect.arrayContaining(lan))
    expect(printed).not.toContain("0.0.0.0")
    for (const address of lan) {
      const host = address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`
      expect((await ask(port, { host })).status, host).toBe(200)
    }
  })

  it("refuses to start when this user may not write the config's directory, and says to use sudo", async () => {
    const dir = tempDir("setup-unwritable", res)
    const config = writeConfig(join(dir, "config.yaml"), daemonConfig({ service: { baseUrl: "http://127.0.0.1:9/" }, places: [] }))
    const port = await freePort()
    // nobody: the temporary directory is root's, 0700.
    const setup = startScorebridge(["setup", "--config", config, "--port", String(port)], {
      wrap: (command, args) => ["setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", command, ...args]]
    })
    res.defer(() => setup.stop())
    const exited = await setup.exited
    expect(exited.code).toBe(1)
    expect(setup.stderr()).toMatch(/this user may not: run it with sudo/u)
    expect(setup.stdout()).not.toMatch(/setup code/u)
  })
})
