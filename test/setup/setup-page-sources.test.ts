import { symlinkSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { afterAll, describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import { frame } from "../../adapters/stramatel-452m/encode.ts"
import { parseConfig } from "../../src/config/load.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { deviceForSetupUser } from "../support/checkout-owner.ts"
import { resources } from "../support/resources.ts"
import { withoutChromium } from "../status/chromium.ts"
import { configText, loggedIn, newCourtToListening, repeatingConsole, startStack } from "./setup-page-stack.ts"
import { farViewer as viewer, venueTime, venueZone } from "../support/venue-zone.ts"

/**
 * A court whose buttons are a serial button box (a microcontroller printing `BTN 1 single` on a USB
 * adapter), bound through the page while it listens on the broker too; the venue's mini-PC in
 * Adelaide and the technician's phone set to Los Angeles in English: every time the page shows is
 * the venue's clock, 24-hour. After the save the page says whether an event is open at the court
 * (a press makes a clip only then), and a press on the box makes a click at the service.
 */
const res = resources()
afterAll(() => res.release())

const boxName = "usb-Arduino_Uno_95037323535351803130-if00"
const volleyball = 0x36

/** The HH:MM:SS in `text` after `before`, and that it is the venue's clock of a moment in the last `seconds`. */
const expectVenueNow = (text: string | null, before: RegExp, seconds = 60) => {
  const time = new RegExp(`${before.source}(\\d\\d:\\d\\d:\\d\\d)`, "u").exec(text ?? "")?.[1]
  expect(time, text ?? "").toBeDefined()
  const recent = Array.from({ length: seconds }, (_, i) => venueTime(Date.now() - i * 1000))
  expect(recent, `${text} in ${venueZone}`).toContain(time)
}

const textOf = (page: Page, selector: string) => page.textContent(selector)

describe.skipIf(withoutChromium)("the setup page's other button sources and times (real processes, Chromium)", () => {
  it("a serial button box bound and saved, times in the venue's zone, the test press offered once an event is open, a press makes a click", async () => {
    const stack = await startStack(res, "setup-sources", undefined, { venueZone })
    const box = await startPtyPair(stack.dir, "button-box")
    res.defer(() => box.stop())
    deviceForSetupUser(box.daemonPath)
    const boxPath = join(stack.byIdDirectory, boxName)
    symlinkSync(box.daemonPath, boxPath)
    const board = { home: 12, away: 9 }
    repeatingConsole(res, stack, () => [frame(volleyball, { home: board.home, away: board.away, period: 2, setsWon: [1, 0], sets: [[25, 20], [board.home, board.away]] })])
    const { page } = await loggedIn(res, stack, { width: 1280, height: 800 }, viewer)
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(viewer.timezoneId)
    expect(await textOf(page, "#meta")).toContain(`times in ${venueZone}`)

    await newCourtToListening(page, stack, { place: "court-1", maker: "Stramatel", model: "stramatel-452m" })
    expectVenueNow(await textOf(page, "#token-message"), /Token stored at /)
    expectVenueNow(await textOf(page, "#listen-counts"), / since /)
    await page.click("#board-yes")

    // Step 6: the box's adapter from the list (the console's is not offered), listened to with the broker at once.
    await expect.poll(() => page.locator("#button-serial option").allTextContents()).toEqual([expect.stringMatching(new RegExp(`^${boxName} · /dev/pts/\\d+$`, "u"))])
    await page.selectOption("#button-serial", boxPath)
    expect(await page.isChecked("#source-serial")).toBe(true)
    expect(await page.isChecked("#source-mqtt")).toBe(true)
    await page.click("#button-listen")
    await page.locator("#button-links [data-link=serial][data-state=connected]").waitFor({ timeout: 10_000 })
    await page.locator("#button-links [data-link=mqtt][data-state=connected]").waitFor({ timeout: 10_000 })
    const writer = openWriter(box.writerPath)
    res.defer(() => writer.close())
    writer.write("BTN 1 single\r\n")
    await page.locator("#button-found").waitFor({ timeout: 10_000 })
    expect(await textOf(page, "#button-described")).toContain(`serial-buttons on ${boxPath}: button 1, single`)
    expectVenueNow(await textOf(page, "#button-described"), /Heard at /)
    await page.selectOption("#button-team", "away")
    await page.click("#button-use")
    await page.locator("#actions [data-action]").waitFor()
    await page.click("#step-buttons [data-next=save]")

    await expect.poll(() => page.isEnabled("#save"), { timeout: 10_000 }).toBe(true)
    await page.click("#save")
    await expect.poll(() => textOf(page, "#save-message"), { timeout: 10_000 }).toMatch(/^Saved at/)
    expectVenueNow(await textOf(page, "#save-message"), /^Saved at /)
    const { config } = await Effect.runPromise(parseConfig(configText(stack), stack.configPath, protocols))
    const entry = config.buttons?.find((b) => b.serial?.path === boxPath)
    expect(entry?.type).toBe("serial-buttons")
    expect(config.places.find((p) => p.key === "court-1")?.actions).toMatchObject([{ source: entry!.name, gesture: "single", do: "highlight", team: "away" }])
    await stack.daemon.waitForLog(/reloaded .*: 2 place/, { timeoutMs: 15_000 })
    // No event yet: the page says a press makes no clip, rather than asking for one.
    await expect.poll(() => page.getAttribute("#daemon-clip", "data-event"), { timeout: 30_000 }).toBe("none")
    expect(await textOf(page, "#daemon-clip")).toMatch(/^No event is open at this court, so a press makes no clip until one is/)
    const { eventKey } = await stack.control.startEvent("court-1", { homeTeam: "Lions", awayTeam: "Tigers" })
    // The next score entry's answer tells the bridge about the event.
    board.home = 13
    await expect.poll(() => page.getAttribute("#daemon-clip", "data-event"), { timeout: 30_000 }).toBe("open")
    expect(await textOf(page, "#daemon-clip")).toMatch(/^An event is open at this court \(Lions v Tigers\)|^An event is open at this court: press the button now/)
    await expect.poll(async () => `${await page.getAttribute("#daemon-entry", "data-delivered")} ${await textOf(page, "#after-save")}`, { timeout: 20_000 }).toMatch(/^yes/)
    expectVenueNow(await textOf(page, "#daemon-entry"), /delivered, at /)

    writer.write("BTN 1 single\r\n")
    await eventually("the box's press as a click at the simulator", async () =>
      (await stack.control.requests({ method: "POST", pathPrefix: `/public/events/${eventKey}/clicks` })).length > 0 ? true : undefined, { timeoutMs: 15_000, intervalMs: 250 })
    await expect.poll(() => page.getAttribute("#daemon-clip", "data-clip"), { timeout: 20_000 }).not.toBeNull()
    expect(await page.locator("main").textContent()).not.toMatch(/\d (AM|PM)/u)
  }, 180_000)
})
