import { join } from "node:path"
import { build } from "esbuild"
import { afterAll, describe, expect, it } from "vitest"
import { statusBrowserScript, statusScript } from "../../src/status/status-script.ts"
import { browserScriptBuild } from "../../src/transport/http-edge/browser-script.ts"
import { resources } from "../scoreboard/harness.ts"
import { launchChromium, withoutChromium } from "./chromium.ts"
import { startStatusDaemon } from "./status-daemon.ts"

/**
 * /status.js is the status page's TypeScript modules (src/status/browser/), typed by /status.json's
 * own Schema and bundled by esbuild like the setup page's: one classic script, nothing global (the
 * old script's functions and its `lastOk` were names any other script could reach).
 */
const repo = join(import.meta.dirname, "../..")

describe("the status page's script, bundled from TypeScript modules", () => {
  const res = resources()
  afterAll(() => res.release())

  it("is one ES2020 classic script made only of the page's modules and the venue clock's style", async () => {
    const text = await statusScript()
    expect(text.startsWith("\"use strict\";\n(() => {"), text.slice(0, 80)).toBe(true)
    expect(text).not.toMatch(/\bwindow\.[\w$]+\s*=[^=]|globalThis|innerHTML/u)
    const result = await build({ ...browserScriptBuild(statusBrowserScript, repo), metafile: true })
    expect(Object.keys(result.metafile.inputs).filter((input) => !input.startsWith("src/status/browser/"))).toEqual(["src/timeline/time-ticks.ts"])
    expect(result.outputFiles[0]!.text).toBe(text)
  })

  it.skipIf(withoutChromium)("draws the cards and leaves no name in the page's global scope", async () => {
    const daemon = await startStatusDaemon(res, { courts: ["live", "absent"] })
    const context = await launchChromium(res, { width: 1000, height: 800 })
    const page = await context.newPage()
    const problems: Array<string> = []
    page.on("pageerror", (error) => problems.push(error.message))
    await page.goto(`${daemon.url}/`)
    await page.locator('article[data-place="court-2"] [data-badge]').filter({ hasText: "DISCONNECTED" }).waitFor({ timeout: 5_000 })
    const names = ["lastOk", "el", "card", "render", "tick", "clock", "venue", "timelines", "answer", "table", "showTimelines"]
    const global: Array<string> = []
    for (const name of names) if ((await page.evaluate(`typeof ${name}`)) !== "undefined") global.push(name)
    expect(global).toEqual([])
    expect(problems).toEqual([])
  }, 30_000)
})
