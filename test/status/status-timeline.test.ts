import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { launchChromium, withoutChromium } from "./chromium.ts"
import { basketballLine, get, startStatusDaemon, type StatusDaemon } from "./status-daemon.ts"

/**
 * The timeline through the real daemon (simulator, pty scoreboard, serial buttons, outbox on
 * disk, status server on loopback): the SVG over HTTP, and the status page's picture following
 * a new score without a reload.
 */

const timelineOf = (daemon: StatusDaemon, key: string, query = "") => get(`${daemon.url}/places/${key}/timeline.svg${query}`)
const versions = async (daemon: StatusDaemon): Promise<Record<string, string>> => JSON.parse((await get(`${daemon.url}/status.json`)).body).timelines
const teamScore = (svg: string, team: string) => new RegExp(`data-team-score="${team}">([^<]*)<`, "u").exec(svg)?.[1]

describe.skipIf(withoutChromium)("the timeline served by the daemon", () => {
  const res = resources()
  let daemon: StatusDaemon
  let line = basketballLine(0, 0)

  beforeAll(async () => {
    daemon = await startStatusDaemon(res, { courts: ["live", "absent"], buttons: true })
    const timer = setInterval(() => daemon.scoreboard.write(line), 100)
    res.defer(() => clearInterval(timer))
    for (const [home, away] of [[2, 0], [2, 3]] as const) {
      line = basketballLine(home, away)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    daemon.buttons!.write("BTN 1 single\r\n")
    await eventually("the press and the 2–3 entry delivered on the timeline", async () => {
      const svg = (await timelineOf(daemon, "court-1")).body
      return svg.includes('data-kind="press"') && svg.includes('data-state="delivered"') && teamScore(svg, "away") === "3" &&
          !svg.includes('data-score-state="pending"') && svg.includes("Lakeside Lions")
        ? true
        : undefined
    }, { timeoutMs: 10_000 })
  }, 30_000)
  afterAll(() => res.release())

  it("GET /places/<key>/timeline.svg answers the place's SVG, at the width asked; an unknown key 404s naming the places", async () => {
    const svg = await timelineOf(daemon, "court-1", "?width=390")
    expect(svg.status).toBe(200)
    expect(svg.type).toBe("image/svg+xml")
    expect(svg.body).toMatch(/^<\?xml [^>]+>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="390" /u)
    expect(svg.body).toContain('data-place="court-1"')
    expect(svg.body).toMatch(/data-kind="press" data-state="delivered" data-team="home"/u)
    expect([teamScore(svg.body, "home"), teamScore(svg.body, "away")]).toEqual(["2", "3"])
    expect(svg.body).toContain("Harbor Hawks")

    const unknown = await timelineOf(daemon, "court-9")
    expect(unknown.status).toBe(404)
    expect(unknown.body).toBe('unknown place "court-9": known places are court-1, court-2\n')
    expect((await timelineOf(daemon, "%E0%A4%A")).status).toBe(404)

    const empty = await timelineOf(daemon, "court-2")
    expect(empty.status).toBe(200)
    expect(empty.body).toContain("No score entry or highlight yet")
    expect(Object.keys(await versions(daemon)).sort()).toEqual(["court-1", "court-2"])
  })

  it("the status page shows each court's timeline on a phone and redraws it, without a reload, only when a new entry arrives", async () => {
    const context = await launchChromium(res, { width: 390, height: 844 })
    const page = await context.newPage()
    const requests: Array<string> = []
    page.on("request", (request) => requests.push(request.url()))
    await page.goto(`${daemon.url}/`)
    const img = page.locator('img[data-timeline="court-1"]')
    const loaded = async () => {
      const state = await img.evaluate((e) => {
        const i = e as unknown as { complete: boolean; naturalWidth: number; clientWidth: number; getAttribute(n: string): string | null; getBoundingClientRect(): { right: number } }
        return { complete: i.complete, naturalWidth: i.naturalWidth, clientWidth: i.clientWidth, src: i.getAttribute("src") ?? "", right: i.getBoundingClientRect().right }
      })
      return state.complete && state.naturalWidth > 0 ? state : undefined
    }
    const first = await eventually("court 1's timeline shown", loaded, { timeoutMs: 8_000 })
    // Laid out for the phone: no wider than the screen, its text at least 85 % of its size.
    expect(first.right).toBeLessThanOrEqual(390)
    expect(first.naturalWidth).toBeGreaterThanOrEqual(320)
    expect(first.clientWidth / first.naturalWidth).toBeGreaterThan(0.85)
    expect(first.src).toMatch(/^places\/court-1\/timeline\.svg\?width=\d+&v=\w+$/u)
    await page.evaluate("window.samePage = true")
    // An <img> follows no link inside it: the picture itself opens the SVG, whose clip marks are links.
    expect(await page.locator('a[href="places/court-1/timeline.svg"] > img[data-timeline="court-1"]').count()).toBe(1)

    // Nothing changes: two polls of status.json later, the picture has not been asked for again.
    const timelineRequests = () => requests.filter((u) => u.includes("/places/court-1/timeline.svg")).length
    const before = timelineRequests()
    const polls = requests.filter((u) => u.endsWith("/status.json")).length
    await eventually("two more polls", () => (requests.filter((u) => u.endsWith("/status.json")).length >= polls + 2 ? true : undefined), { timeoutMs: 6_000 })
    expect(timelineRequests()).toBe(before)

    // A new score: the page asks for the new picture by itself and shows it.
    line = basketballLine(5, 3)
    const next = await eventually("the picture re-requested after the 5–3 entry", async () => {
      const state = await loaded()
      return state !== undefined && state.src !== first.src ? state : undefined
    }, { timeoutMs: 10_000 })
    expect(timelineRequests()).toBeGreaterThan(before)
    expect(await page.evaluate("window.samePage")).toBe(true)
    const shown = await get(`${daemon.url}/${next.src}`)
    expect([teamScore(shown.body, "home"), teamScore(shown.body, "away")]).toEqual(["5", "3"])
    expect(requests.filter((u) => !u.startsWith(daemon.url))).toEqual([])

    mkdirSync(join(process.cwd(), "test-artifacts"), { recursive: true })
    await page.screenshot({ path: join(process.cwd(), "test-artifacts", "status-timeline-phone.png"), fullPage: true })

    // Opened on its own (a link), under the server's strict CSP, it is drawn as an SVG document.
    await page.goto(`${daemon.url}/places/court-1/timeline.svg`)
    const drawn = await page.evaluate(`(() => ({ root: document.documentElement.localName, width: document.documentElement.getBoundingClientRect().width,
      marks: document.querySelectorAll("[data-mark]").length, home: document.querySelector('[data-team-score="home"]').getBoundingClientRect().width }))()`)
    expect(drawn).toMatchObject({ root: "svg", width: 720, marks: 1 })
    expect((drawn as { home: number }).home).toBeGreaterThan(0)
  }, 40_000)
})
