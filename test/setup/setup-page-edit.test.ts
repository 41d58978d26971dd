import { appendFileSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { frame } from "../../adapters/stramatel-452m/encode.ts"
import { openWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { deviceForSetupUser } from "../support/checkout-owner.ts"
import { resources } from "../support/resources.ts"
import { withoutChromium } from "../status/chromium.ts"
import { configText, loggedIn, repeatingConsole, type Stack, startStack } from "./setup-page-stack.ts"

/**
 * Courts already in config.yaml, edited from the page: court-1's Stramatel is read by the running
 * daemon, so listening on it shows what the bridge hears instead of a dead end; its name and adapter
 * changed touch only its own lines. A hand edit made while the page is open is never overwritten,
 * and a value the config refuses is shown with its path and never written.
 */
const res = resources()
afterAll(() => res.release())

const volleyball = 0x36
const secondName = "usb-Prolific_Technology_Inc._USB-Serial_Controller_D-if00-port0"

// Court 1 as a hand wrote it: the daemon reads its console before the page opens.
const courtOne = (byIdPath: string) => `  - key: court-1
    name: Court 1   # the show court
    sport: volleyball
    scoreboard:
      protocol: stramatel-452m
      serial:
        path: ${byIdPath}
`

let stack: Stack

beforeAll(async () => {
  if (withoutChromium) return
  stack = await startStack(res, "setup-edit", undefined, { morePlaces: courtOne })
  repeatingConsole(res, stack, () => [frame(volleyball, { home: 21, away: 18, period: 3, setsWon: [1, 1], sets: [[25, 20], [22, 25], [21, 18]] })])
  await stack.daemon.waitForLog(/court-1/, { timeoutMs: 20_000 })
}, 60_000)

/** The court's Edit, then its name typed over the service's. */
const editName = async (page: Page, key: string, name: string) => {
  await page.click(`[data-court=${key}] button`)
  await page.click("#place-by-hand summary")
  expect(await page.inputValue("#place-key")).toBe(key)
  await page.fill("#place-name", name)
  await page.click("#place-typed")
}

const previewed = async (page: Page) => {
  await page.click("#preview")
  await expect.poll(() => page.textContent("#save-message"), { timeout: 10_000 }).toMatch(/^(The config is valid|Not saved)/)
}

describe.skipIf(withoutChromium)("the setup page edits the courts config.yaml has (real processes, Chromium)", () => {
  it("Edit court-1: its console read by the bridge shows the bridge's light and reading, then its name and adapter change and only its lines do", async () => {
    const before = configText(stack)
    const { page } = await loggedIn(res, stack, { width: 1280, height: 800 })
    await page.locator("[data-court=court-1]").waitFor()
    await editName(page, "court-1", "Centre court")
    await page.click("#console-facts button")
    // The adapter it has is offered (the bridge's user of it is this court) and chosen.
    await expect.poll(() => page.getAttribute(`[data-port="${stack.byIdPath}"]`, "class")).toContain("chosen")
    expect(await page.isDisabled(`[data-port="${stack.byIdPath}"]`)).toBe(false)
    await page.click("#link-done")
    await page.locator("#listen-badge[data-from=bridge]").waitFor({ timeout: 15_000 })
    await expect.poll(() => page.textContent("#listen-badge"), { timeout: 15_000 }).toBe("LIVE")
    expect(await page.textContent("#listen-message")).toMatch(/^The bridge reads this console now, for court-1/)
    await expect.poll(() => page.textContent("#listen-reading")).toMatch(/21\D+18/)

    // The console moves to another adapter: the page listens on it itself.
    const other = await startPtyPair(stack.dir, "second-console")
    res.defer(() => other.stop())
    deviceForSetupUser(other.daemonPath)
    const otherPath = join(stack.byIdDirectory, secondName)
    symlinkSync(other.daemonPath, otherPath)
    const writer = openWriter(other.writerPath)
    const timer = setInterval(() => writer.write(frame(volleyball, { home: 4, away: 7, period: 1, setsWon: [0, 0], sets: [[4, 7]] })), 200)
    res.defer(() => {
      clearInterval(timer)
      writer.close()
    })
    await page.click("#ports-again")
    await page.click(`[data-port="${otherPath}"]`)
    await page.click("#link-done")
    await expect.poll(() => page.textContent("#listen-reading"), { timeout: 15_000 }).toMatch(/4\D+7/)
    expect(await page.getAttribute("#listen-badge", "data-from")).toBeNull()
    await page.click("#board-yes")
    await page.click("#step-buttons [data-next=save]")
    await expect.poll(() => page.isEnabled("#save"), { timeout: 10_000 }).toBe(true)
    await page.click("#save")
    await expect.poll(() => page.textContent("#save-message"), { timeout: 10_000 }).toMatch(/^Saved at/)
    expect(configText(stack)).toBe(before.replace("name: Court 1   # the show court", "name: Centre court   # the show court").replace(stack.byIdPath, otherPath))
    await expect.poll(() => page.textContent("[data-court=court-1]")).toContain("Centre court")
  }, 120_000)

  it("a hand edit while the page is open: nothing written and the page says so, a reload saves; a broken value: its problem with its path, nothing written", async () => {
    const { page } = await loggedIn(res, stack, { width: 1280, height: 800 })
    await page.locator("[data-court=court-2]").waitFor()
    await editName(page, "court-2", "Court two")
    await previewed(page)
    expect(await page.textContent("#diff")).toContain("+    name: Court two")

    appendFileSync(stack.configPath, "# a note added by hand meanwhile\n")
    const handEdited = configText(stack)
    await page.click("#save")
    await expect.poll(() => page.textContent("#save-message"), { timeout: 10_000 }).toMatch(/^config\.yaml changed since you opened this page/)
    expect(configText(stack)).toBe(handEdited)

    await page.reload()
    await page.locator("[data-court=court-2]").waitFor()
    await editName(page, "court-2", "Court two")
    await previewed(page)
    await page.click("#save")
    await expect.poll(() => page.textContent("#save-message"), { timeout: 10_000 }).toMatch(/^Saved at/)
    const saved = configText(stack)
    expect(saved).toContain("# a note added by hand meanwhile")
    expect(saved).toBe(handEdited.replace("    name: Court 2\n", "    name: Court two\n"))

    // A sport the config does not know: shown with where it is, Save stays off, the file as it was.
    await page.click("[data-court=court-2] button")
    await page.click("#place-by-hand summary")
    await page.fill("#place-sport", "underwater-rugby")
    await page.click("#place-typed")
    await previewed(page)
    expect(await page.textContent("#save-message")).toMatch(/^Not saved/)
    const problem = page.locator("#save-problems [data-problem]").first()
    await problem.waitFor()
    expect(await problem.getAttribute("data-problem")).toMatch(/sport/u)
    expect(await problem.textContent()).toMatch(/^places.*sport/u)
    expect(await page.isDisabled("#save")).toBe(true)
    expect(configText(stack)).toBe(saved)
  }, 120_000)
})
