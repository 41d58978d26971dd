import type { Page, Response } from "playwright-core"
import { afterEach, describe, expect, it } from "vitest"
import { resources } from "../support/resources.ts"
import { launchChromium, withoutChromium } from "../status/chromium.ts"
import { printedCodes, startSetupProcess } from "./setup-process-support.ts"

/**
 * A real browser's POSTs pass the CSRF wall on the strength of the server's Referrer-Policy
 * header alone. The server demands `Origin: http://<Host>` on every non-GET, and under
 * `no-referrer` Chromium sends a form's POST (a navigation: the login, the logout) with
 * `Origin: null` (its fetch()es keep their Origin: tried in this Chromium), so under that header
 * nobody could log in. The login and app pages also say `same-origin` in a meta tag; here the
 * browser gets them without it, so the test fails (the login's 403) if the header goes back to
 * `no-referrer`, whatever the pages say.
 */
const res = resources()
afterEach(() => res.release())

const referrerMeta = `<meta name="referrer" content="same-origin">`

/**
 * Every page of the server reaches the browser as the server sent it (headers included), without
 * the meta tag. Everything else, the POSTs above all, goes from the browser to the server untouched.
 */
const withoutReferrerMeta = async (page: Page, url: string) => {
  let stripped = 0
  await page.route((target) => target.origin === new URL(url).origin, async (route) => {
    const request = route.request()
    if (request.method() !== "GET" || request.resourceType() !== "document") return route.continue()
    const response = await route.fetch()
    if (!(response.headers()["content-type"] ?? "").startsWith("text/html")) return route.fulfill({ response })
    const html = await response.text()
    if (html.includes(referrerMeta)) stripped++
    await route.fulfill({ response, body: html.replace(referrerMeta, "") })
  })
  return () => stripped
}

/** Clicks `selector` (a form's submit button) and answers the POST it sent to `path`. */
const submitted = async (page: Page, path: string, selector: string): Promise<Response> => {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === path),
    page.click(selector)
  ])
  return response
}

describe.skipIf(withoutChromium)("scorebridge setup (the process) in Chromium", () => {
  it("with only the server's Referrer-Policy: the login form logs in, a plain fetch POST is answered, the logout form logs out", async () => {
    const served = await startSetupProcess(res, "setup-browser-origin", { env: { SCOREBRIDGE_SETUP_SYSLOG: "off" } })
    const url = `http://127.0.0.1:${served.port}/`
    const context = await launchChromium(res, { width: 1280, height: 800 })
    const page = await context.newPage()
    const stripped = await withoutReferrerMeta(page, url)

    const loginPage = await page.goto(url)
    expect(stripped()).toBe(1)
    await page.fill("#code", printedCodes(served.setup).at(-1)!)
    const login = await submitted(page, "/login", "button[type=submit]")
    expect(login.status(), "the login form's POST").toBe(303)
    await page.locator("#court-list").waitFor()
    // The app page again, now through the route too (a redirect's target is not routed).
    await page.goto(url)
    await page.locator("#court-list").waitFor()
    expect(stripped()).toBe(2)

    // fetch's defaults from the app page: the document's referrer policy, this origin's session cookie.
    const answer = await page.evaluate(async () => {
      const config = await (await fetch("/api/config")).json() as { fingerprint: string; places: Array<Record<string, unknown>> }
      const body = { fingerprint: config.fingerprint, replaces: "court-a", place: { ...config.places[0], name: "Court A (from the browser)" }, buttons: [] }
      const response = await fetch("/api/preview", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
      return { status: response.status, text: await response.text() }
    })
    expect(answer.status, answer.text).toBe(200)
    expect(JSON.parse(answer.text).diff).toContain("+    name: Court A (from the browser)")

    const logout = await submitted(page, "/logout", "form[action='/logout'] button")
    expect(logout.status(), "the logout form's POST").toBe(303)
    await page.locator("#code").waitFor()
    expect(await page.evaluate(async () => (await fetch("/api/config")).status)).toBe(401)
    await served.setup.waitForLog(/^session 1 from 127\.0\.0\.1 logged out$/u)
    // Other sites still get no referrer from the page: same-origin, not unsafe-url.
    expect(loginPage?.headers()["referrer-policy"]).toBe("same-origin")
  })
})
