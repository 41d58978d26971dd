import { Effect } from "effect"
import type { Page } from "playwright-core"
import { afterAll, describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import { parseConfig } from "../../src/config/load.ts"
import { resources } from "../support/resources.ts"
import { withoutChromium } from "../status/chromium.ts"
import { fairplayPacket, mmss, right, type Shown } from "../commissioning/learn-support.ts"
import { configText, loggedIn, newCourtToListening, repeatingConsole, screenshots, startStack } from "./setup-page-stack.ts"
import { farViewer as viewer, venueTime, venueZone } from "../support/venue-zone.ts"

/**
 * A Trans-Lux Fair-Play MP-70 whose firmware writes the score elsewhere than the documented
 * rink layout: the page's reading is wrong, the technician answers "No", types what the board
 * shows at three moments, and the layout finder's options make the reading right and are saved.
 * The mini-PC is in Adelaide and the browser in Los Angeles: the moments the page lists and the
 * report the server writes (in the machine's zone) name the same venue times.
 */
const res = resources()
afterAll(() => res.release())

/** Clock and period where the rink layout has them; home at H 29-30 and guest at H 34-35 (between the penalty slots) instead of H 12-13 / H 38-39. */
const moved = (s: Shown) => [
  fairplayPacket("C", 11, [[2, mmss(s.clock)], [7, String(s.period)], [8, "60"]]),
  fairplayPacket("H", 55, [[29, right(s.home, 2)], [34, right(s.away, 2)]])
]

const moments: ReadonlyArray<Shown> = [
  { home: 1, away: 0, period: 1, clock: "12:34" },
  { home: 1, away: 2, period: 2, clock: "9:58" },
  { home: 12, away: 17, period: 3, clock: "0:47" }
]

const framesSoFar = async (page: Page) => Number(/(\d+) frames/u.exec((await page.textContent("#listen-counts")) ?? "")?.[1] ?? 0)

/** The console shows `shown`; once the page has heard it for a while, the technician notes it. */
const noteMoment = async (page: Page, board: { shown: Shown }, shown: Shown) => {
  board.shown = shown
  const from = await framesSoFar(page)
  await expect.poll(() => framesSoFar(page), { timeout: 10_000 }).toBeGreaterThan(from + 8)
  await page.fill("#moment-home", String(shown.home))
  await page.fill("#moment-guest", String(shown.away))
  await page.fill("#moment-period", String(shown.period))
  await page.fill("#moment-clock", shown.clock)
  const noted = await page.locator("#moments li").count()
  await page.click("#moment-note")
  await expect.poll(() => page.locator("#moments li").count()).toBe(noted + 1)
  // The board stays as noted a little after the note, as a real one does.
  const after = await framesSoFar(page)
  await expect.poll(() => framesSoFar(page), { timeout: 10_000 }).toBeGreaterThan(after + 4)
}

describe.skipIf(withoutChromium)("the setup page's layout finder (real processes, Chromium)", () => {
  it("a Fair-Play MP-70 with its score moved: No, three moments, the options found are used, heard right and saved", async () => {
    const stack = await startStack(res, "setup-layout", "usb-FTDI_FT232R_USB_UART_B7734CD2-if00-port0", { venueZone })
    const { page } = await loggedIn(res, stack, { width: 1280, height: 800 }, viewer)
    const opened = Date.now()
    const board = { shown: { home: 0, away: 0, period: 1, clock: "15:00" } as Shown }
    repeatingConsole(res, stack, () => moved(board.shown))

    await newCourtToListening(page, stack, { place: "rink-1", maker: "Trans-Lux Fair-Play", model: "fairplay-mp70" })

    await page.click("#board-no")
    for (const shown of moments) await noteMoment(page, board, shown)
    await page.click("#layout-find")
    await expect.poll(() => page.textContent("#finder-message"), { timeout: 20_000 }).toMatch(/^(Found|No layout|More than one)/)
    expect(await page.textContent("#finder-message"), (await page.locator("#finder-lines div").allTextContents()).join("\n")).toMatch(/^Found/)
    // Each moment's time on the page is the venue's, and the server's report names the same one.
    const lines = await page.locator("#finder-lines div").allTextContents()
    const venueSeconds = Array.from({ length: Math.ceil((Date.now() - opened) / 1000) + 2 }, (_, i) => venueTime(Date.now() - i * 1000))
    const noted = (await page.locator("#moments li").allTextContents()).map((text) => /^Moment \d: (\d\d:\d\d:\d\d) — /u.exec(text)?.[1])
    expect(noted).toHaveLength(moments.length)
    for (const time of noted) {
      expect(venueSeconds).toContain(time)
      expect(lines.some((line) => line.startsWith(`  ${time}: `)), `${time} in ${lines.join("\n")}`).toBe(true)
    }
    await screenshots(page, "layout", "#step-listen")
    await page.click("#layout-accept")
    await expect.poll(() => page.textContent("#listen-reading"), { timeout: 15_000 }).toMatch(/12\D+17/)

    await page.click("#board-yes")
    await page.click("#step-buttons [data-next=save]")
    await expect.poll(() => page.isEnabled("#save"), { timeout: 10_000 }).toBe(true)
    await page.click("#save")
    await expect.poll(() => page.textContent("#save-message"), { timeout: 10_000 }).toMatch(/^Saved at/)
    const { config } = await Effect.runPromise(parseConfig(configText(stack), stack.configPath, protocols))
    const rink = config.places.find((p) => p.key === "rink-1")!
    expect(rink.scoreboard?.protocol).toBe("fairplay-mp70")
    expect(rink.scoreboard?.options).toMatchObject({ fields: { home: expect.stringMatching(/^H 2[89]/u), away: expect.stringMatching(/^H 3[34]/u) } })
    await expect.poll(() => page.textContent("#daemon-badge"), { timeout: 20_000 }).toBe("LIVE")
  }, 180_000)
})
