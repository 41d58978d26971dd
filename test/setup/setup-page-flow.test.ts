import { Effect } from "effect"
import { connectAsync } from "mqtt"
import { afterAll, describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import { frame } from "../../adapters/stramatel-452m/encode.ts"
import { parseConfig } from "../../src/config/load.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { resources } from "../support/resources.ts"
import { withoutChromium } from "../status/chromium.ts"
import { configText, loggedIn, repeatingConsole, screenshots, startStack, token } from "./setup-page-stack.ts"

/**
 * One court from nothing to LIVE through the page, as a technician does it: a Stramatel 452 M
 * on a pty behind a by-id name, a zigbee2mqtt remote on mosquitto, the simulator as the
 * service, the daemon and `scorebridge setup` as processes. Each step is photographed at a
 * desktop and a phone width for docs/install.md.
 */
const res = resources()
afterAll(() => res.release())

const remoteTopic = "zigbee2mqtt/court1-remote"
const volleyball = 0x36

describe.skipIf(withoutChromium)("the setup page walks one court to LIVE (real processes, Chromium)", () => {
  it("Stramatel on a pty and a zigbee2mqtt button: saved valid with the comments kept, the daemon reloads, LIVE, first entry delivered, a press makes a click", async () => {
    const stack = await startStack(res, "setup-flow")
    const { eventKey } = await stack.control.startEvent("court-1", { homeTeam: "Lions", awayTeam: "Tigers" })
    const before = configText(stack)
    const remote = await connectAsync(stack.broker.url, { clientId: `setup-page-remote-${process.pid}`, clean: true })
    res.defer(() => remote.endAsync(true))
    const press = () => remote.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
    const { page } = await loggedIn(res, stack, { width: 1280, height: 800 })
    await page.locator("[data-court=court-2]").waitFor()
    await screenshots(page, "courts", "main")
    const started = Date.now()
    const took: Array<string> = []
    const lap = (step: string) => took.push(`${step} ${((Date.now() - started) / 1000).toFixed(1)} s`)

    // 1. Checks and the token (a password field, emptied once stored).
    await page.click("#court-add")
    await page.locator("#checks li[data-check]").first().waitFor()
    await page.fill("#token", token)
    await page.click("#token-form button[type=submit]")
    await expect.poll(() => page.textContent("#token-message")).toMatch(/Token stored at \d\d:\d\d:\d\d\. It is not shown again\. The bridge takes it when the court is saved\./)
    expect(await page.inputValue("#token")).toBe("")
    await page.locator("#checks li[data-check]").first().waitFor()
    await screenshots(page, "checks", "#step-checks")
    await page.click("#step-checks [data-next=place]")
    lap("checks")

    // 2. The court from the service's list: court-2 is there already, so it cannot be picked twice.
    await page.locator("[data-place=court-1]").waitFor()
    expect(await page.locator("[data-place=court-2]").isDisabled()).toBe(true)
    await screenshots(page, "place", "#step-place")
    await page.click("[data-place=court-1]")
    lap("place")

    // 3. The console by maker, then model, with its wiring note.
    await page.click("[data-maker=Stramatel]")
    await page.click("[data-model=stramatel-452m]")
    await expect.poll(() => page.textContent("#console-facts .note")).not.toBe("")
    await screenshots(page, "console", "#step-console")
    await page.click("#console-facts button")
    lap("console")

    // 4. The link: the adapter by its stable name.
    await page.locator(`[data-port="${stack.byIdPath}"]`).waitFor()
    await page.click(`[data-port="${stack.byIdPath}"]`)
    await expect.poll(() => page.getAttribute(`[data-port="${stack.byIdPath}"]`, "class")).toContain("chosen")
    await screenshots(page, "link", "#step-link")
    await page.click("#link-done")
    lap("link")

    // 5. Listening: the board as the console sends it.
    repeatingConsole(res, stack, () => [frame(volleyball, { home: 12, away: 9, period: 2, setsWon: [1, 0], sets: [[25, 20], [12, 9]] })])
    await expect.poll(() => page.textContent("#listen-badge"), { timeout: 15_000 }).toBe("LIVE")
    await expect.poll(() => page.textContent("#listen-reading")).toMatch(/12\D+9/)
    await screenshots(page, "listen", "#step-listen")
    await page.click("#board-yes")
    lap("listen")

    // 6. Buttons: listen, press, bind it to the home team.
    await page.click("#button-listen")
    await expect.poll(() => page.textContent("#button-press")).toBe("Press the button now")
    await screenshots(page, "button-press", "#step-buttons")
    await eventually("the page to hear the remote", async () => {
      await press()
      return (await page.isVisible("#button-found")) ? true : undefined
    }, { timeoutMs: 10_000, intervalMs: 500 })
    await page.selectOption("#button-team", "home")
    await page.click("#button-use")
    await page.locator("#actions [data-action]").waitFor()
    await screenshots(page, "buttons", "#step-buttons")
    await page.click("#step-buttons [data-next=save]")
    lap("buttons")

    // 7. Save: the diff, then the daemon's light and its first delivered entry.
    await expect.poll(() => page.isEnabled("#save"), { timeout: 10_000 }).toBe(true)
    expect(await page.textContent("#diff")).toContain("+  - key: court-1")
    await screenshots(page, "save", "#step-save")
    await page.click("#save")
    await expect.poll(() => page.textContent("#save-message"), { timeout: 10_000 }).toMatch(/^Saved at \d\d:\d\d:\d\d/)
    await stack.daemon.waitForLog(/reloaded .*: 2 place/, { timeoutMs: 15_000 })
    await expect.poll(() => page.textContent("#daemon-badge"), { timeout: 20_000 }).toBe("LIVE")
    await expect.poll(() => page.getAttribute("#daemon-entry", "data-delivered"), { timeout: 20_000 }).toBe("yes")
    lap("LIVE and first entry delivered")
    await screenshots(page, "live", "#step-save")

    const saved = configText(stack)
    const { config } = await Effect.runPromise(parseConfig(saved, stack.configPath, protocols))
    expect(config.places.map((p) => p.key)).toEqual(["court-2", "court-1"])
    expect(config.places[1]!.scoreboard?.serial?.path).toBe(stack.byIdPath)
    for (const comment of before.split("\n").filter((line) => line.includes("#"))) expect(saved).toContain(comment)
    expect(saved).not.toContain(token)
    const scores = await stack.control.requests({ method: "POST", pathPrefix: "/public/places/court-1/score", status: 200 })
    expect(scores.length).toBeGreaterThan(0)

    // A press on the remote now makes a click for the open event, and the page shows its clip outcome.
    await press()
    await eventually("the click at the simulator", async () =>
      (await stack.control.requests({ method: "POST", pathPrefix: `/public/events/${eventKey}/clicks` })).length > 0 ? true : undefined, { timeoutMs: 10_000 })
    await expect.poll(() => page.getAttribute("#daemon-clip", "data-clip"), { timeout: 20_000 }).not.toBeNull()
    lap("press and its clip")
    console.log(`setup flow for one court: ${took.join(", ")}`)
  }, 180_000)
})
