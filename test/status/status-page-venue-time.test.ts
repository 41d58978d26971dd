import { afterAll, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { startDemo } from "../demo/demo-process.ts"
import { launchChromium, withoutChromium } from "./chromium.ts"
import { farViewer as viewer, venueTime, venueZone } from "../support/venue-zone.ts"

/**
 * A technician's phone may be set to another zone and language than the venue's mini-PC. The
 * status page shows every time as the venue's clock reads it, in the timeline's 24-hour style:
 * the header, the cards and the timeline's labels are one style and one zone.
 */

describe.skipIf(withoutChromium)("the status page's times", () => {
  const res = resources()
  afterAll(() => res.release())

  it("are the venue's, 24-hour, in the header, the cards and the timeline, in a browser set to another zone and language", async () => {
    // The demo: a real daemon process (simulated console, simulator, outbox, status server), here in the venue's zone.
    const { url } = await startDemo(res, { deliveries: 2, env: { TZ: venueZone } })
    const status = await (await fetch(`${url}/status.json`)).json() as { startedAt: number; venueClock: { timeZone: string; utcOffsetMinutes: number } }
    expect(status.venueClock.timeZone).toBe(venueZone)
    expect([570, 630]).toContain(status.venueClock.utcOffsetMinutes)

    const context = await launchChromium(res, { width: 1100, height: 900 }, viewer)
    const page = await context.newPage()
    expect(await page.evaluate(() => [Intl.DateTimeFormat().resolvedOptions().timeZone, new Date(0).toLocaleTimeString()])).toEqual([viewer.timezoneId, "4:00:00 PM"])
    await page.goto(`${url}/`)
    const meta = page.locator("#meta")
    await meta.filter({ hasText: "running since" }).waitFor({ timeout: 10_000 })
    const header = (await meta.textContent())!
    expect(header).toContain(`running since ${venueTime(status.startedAt)} `)
    expect(header).toMatch(/^updated \d\d:\d\d:\d\d · /u)
    expect(header).toContain(`times in ${venueZone}`)

    const court = page.locator('article[data-place="court-1"]')
    // A condition, not a delay: the demo's first delivery comes within seconds alone, later beside
    // the suite's other process tests on two cores (a CI run once missed 10 s).
    await court.filter({ hasText: "DELIVERED" }).waitFor({ timeout: 25_000 })
    const card = (await court.textContent())!
    expect(card).toMatch(/Last framejust now \(\d\d:\d\d:\d\d\)/u)
    expect(card).toMatch(/ at \d\d:\d\d:\d\d DELIVERED/u)
    expect(await page.locator("main").textContent()).not.toMatch(/\d (AM|PM)/u)

    // The header's "updated" time is the venue's now, not the viewer's: at most a few seconds old.
    const updated = /^updated (\d\d:\d\d:\d\d)/u.exec(header)![1]!
    const recent = Array.from({ length: 15 }, (_, i) => venueTime(Date.now() - i * 1000))
    expect(recent).toContain(updated)

    // The timeline's labels: the same zone and style.
    const svg = await (await fetch(`${url}/places/court-1/timeline.svg?width=720`)).text()
    const labels = [...svg.matchAll(/data-at="(\d+)"[^>]*>(?:<line[^>]*\/>|<line[^>]*><\/line>)<text[^>]*>([^<]+)<\/text>/gu)]
      .map(([, at, label]) => ({ at: Number(at), label: label! }))
    expect(labels.length).toBeGreaterThan(1)
    for (const { at, label } of labels) {
      expect(label).toBe(venueTime(at, venueZone, label.length === 8))
      expect(label).not.toBe(venueTime(at, viewer.timezoneId, label.length === 8))
    }
  }, 60_000)
})
