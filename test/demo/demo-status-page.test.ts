import { afterAll, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { launchChromium, withoutChromium } from "../status/chromium.ts"
import { startDemo } from "./demo-process.ts"

/**
 * `npm start` is the first thing a newcomer runs, and its status page the first page they open:
 * while the simulated console streams and its entries are delivered, the court must read LIVE,
 * judged from its link and readings by the same rules as a real court's.
 */
describe.skipIf(withoutChromium)("the demo's status page", () => {
  const res = resources()
  afterAll(() => res.release())

  it("shows the streaming demo court LIVE, no problem, and its link UP", async () => {
    const { url, demo } = await startDemo(res)

    const context = await launchChromium(res, { width: 1100, height: 900 })
    const page = await context.newPage()
    await page.goto(`${url}/`)
    const court = page.locator('article[data-place="court-1"]')
    await court.locator("[data-badge]").filter({ hasText: "LIVE" }).waitFor({ timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nthe court shows: ${await court.textContent().catch(() => "(no card)")}`)
    })
    expect(await court.locator(".detail").textContent()).toBe("frames arriving")
    expect(await court.textContent()).not.toContain("not opened yet")
    await page.locator("#overall").filter({ hasText: "ALL LIVE" }).waitFor({ timeout: 5_000 })
    expect(await page.locator("#reasons li").count()).toBe(0)

    const link = page.locator("#links tr").filter({ hasText: "scoreboard:court-1" })
    expect(await link.locator("td").nth(1).textContent()).toBe("UP")
    expect(await link.textContent()).toContain("/dev/simulated-console")
    expect(await page.locator("#links").textContent()).not.toContain("NOT STARTED")

    // The same truth in /status.json, which the page draws from.
    const status = await (await fetch(`${url}/status.json`)).json() as {
      healthy: boolean
      links: Array<{ name: string; up: boolean; state: string }>
    }
    expect(status.healthy).toBe(true)
    expect(status.links.find((l) => l.name === "scoreboard:court-1")).toMatchObject({ up: true, state: "connected" })
    expect(demo.hasExited()).toBe(false)
  }, 60_000)
})
