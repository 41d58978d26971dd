import { afterAll, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { launchChromium, withoutChromium } from "./chromium.ts"
import { startStatusDaemon } from "./status-daemon.ts"

/**
 * The status page under its own CSP (no 'unsafe-inline') in headless Chromium: the script and
 * style come as files, the cards are drawn and styled, and the browser reports no violation.
 */
describe.skipIf(withoutChromium)("the status page under a CSP without unsafe-inline", () => {
  const res = resources()
  afterAll(() => res.release())

  it("draws and styles its cards, and Chromium blocks nothing of it", async () => {
    const daemon = await startStatusDaemon(res, { courts: ["live", "absent"] })
    const context = await launchChromium(res, { width: 1000, height: 800 })
    const page = await context.newPage()
    const violations: Array<string> = []
    page.on("console", (message) => {
      if (/Content Security Policy/iu.test(message.text())) violations.push(message.text())
    })
    const response = await page.goto(`${daemon.url}/`)
    expect(response?.headers()["content-security-policy"]).not.toContain("unsafe-inline")
    const card = page.locator('article[data-place="court-2"]')
    await card.locator("[data-badge]").filter({ hasText: "DISCONNECTED" }).waitFor({ timeout: 5_000 })
    // Styled from /status.css: the badge's red background, the header's dark one. Runs in the page: its DOM, not this project's types.
    type Styles = { getComputedStyle(e: unknown): { backgroundColor: string } }
    const background = (e: unknown) => (globalThis as unknown as Styles).getComputedStyle(e).backgroundColor
    expect(await card.locator("[data-badge]").evaluate(background)).toBe("rgb(185, 28, 28)")
    expect(await page.locator("header").evaluate(background)).toBe("rgb(17, 24, 39)")
    expect(violations).toEqual([])
  }, 30_000)
})
