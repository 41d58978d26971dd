import { mkdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Outbox } from "../../src/delivery/outbox.ts"
import type { BridgeEvents } from "../../src/bus/bridge-events.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { statusServerLayer } from "../../src/status/status-server.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { launchChromium, withoutChromium } from "./chromium.ts"
import { acceptedClick, clipsModelLayer, settleClick } from "./clips-model.ts"
import { parsePrometheus, valueOf } from "./prometheus-text.ts"
import { get } from "./status-daemon.ts"
import { inVenueZone } from "../support/venue-zone.ts"

/**
 * The clip outcomes as served: the status server on a real outbox whose follow-ups were settled
 * as the clip follower settles them. Court 1's last click has its clip; court 2's camera recorded
 * nothing for three clicks. /status.json, /healthz, /metrics, and the page in headless Chromium.
 */

const at = (hh: number, mm: number, ss: number) => Date.UTC(2025, 5, 14, hh, mm, ss)
const videoURL = "https://media.example/clips/mo-1/angle-0.mp4"
// The bridge in Adelaide (+09:30 in June): 14:02 UTC is 23:32 at the venue, and the run began more
// than a day ago, so its date is named too.
inVenueZone("Australia/Adelaide")
const problemText = "3 clicks without a clip since 23:32:00 on 2025-06-14: is the camera recording?"
const noClip = { momentStatus: "processing", reason: "no clip 180 s after the click was accepted: is the camera recording?" }

describe("clip outcomes on the status server", () => {
  const res = resources()
  let url: string
  let run: <A, E>(effect: Effect.Effect<A, E, Outbox | BridgeEvents>) => Promise<A>
  const clicks: Record<string, number> = {}

  beforeAll(async () => {
    const listen = `127.0.0.1:${await freePort()}`
    url = `http://${listen}`
    const model = clipsModelLayer(tempDir("status-clips", res), {
      // Buttons only, none configured: the badges are LIVE, only the clips can fail health.
      places: [{ key: "court-1", name: "Court 1", sport: "basketball", buttonSources: [] }, { key: "court-2", name: "Court 2", sport: "basketball", buttonSources: [] }],
      buttons: [],
      mqtt: false,
      thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 3_600_000 },
      clips: { followUp: true, problemAfterClicks: 3 }
    }, 10_000)
    const rt = ManagedRuntime.make(statusServerLayer(listen).pipe(Layer.provideMerge(model)))
    run = (effect) => rt.runPromise(effect)
    res.defer(() => rt.dispose())
    await run(Effect.gen(function*() {
      clicks["ready"] = yield* acceptedClick("court-1", at(14, 1, 5), "mo-1")
      yield* settleClick(clicks["ready"], "clip-ready", {
        angles: 2, videoURL, thumbnailURL: "https://media.example/clips/mo-1/angle-0.jpg", momentStatus: "ready", readyAt: at(14, 1, 14)
      })
      for (const [name, pressedAt] of [["dark-1", at(14, 2, 0)], ["dark-2", at(14, 2, 40)], ["dark-3", at(14, 3, 20)]] as const) {
        clicks[name] = yield* acceptedClick("court-2", pressedAt, `mo-${name}`)
        yield* settleClick(clicks[name], "no-clip", noClip)
      }
    }))
    await eventually("the status server", async () => (await fetch(`${url}/healthz`).then((r) => r.status).catch(() => undefined)))
  }, 20_000)
  afterAll(() => res.release())

  it("/status.json: court 1's last click with its clip, court 2's problem line", async () => {
    const snapshot = JSON.parse((await get(`${url}/status.json`)).body) as StatusSnapshot
    const [court1, court2] = snapshot.places
    expect(court1!.lastClick).toEqual({
      itemId: clicks["ready"], pressedAt: at(14, 1, 5), outcome: "clip-ready", text: "clip ready in 9 s, 2 angles",
      videoURL, thumbnailURL: "https://media.example/clips/mo-1/angle-0.jpg"
    })
    expect(court1!.clipProblem).toBeNull()
    expect(court2!.lastClick).toMatchObject({ itemId: clicks["dark-3"], outcome: "no-clip", videoURL: null })
    expect(court2!.clipProblem).toEqual({ clicks: 3, since: at(14, 2, 0), text: problemText })
    expect([court1!.source.badge, court2!.source.badge]).toEqual(["LIVE", "LIVE"])
  })

  it("/healthz: 503, naming court 2 and its cameras only", async () => {
    const health = await get(`${url}/healthz`)
    expect(health.status).toBe(503)
    expect(health.body).toBe(`court-2: ${problemText}\n`)
  })

  it("/metrics: outcomes counted per court, press to clip as a histogram, the run as a gauge", async () => {
    // The counters follow the bus on the model's own fiber.
    const metrics = await eventually("the outcomes counted", async () => {
      const m = parsePrometheus((await get(`${url}/metrics`)).body)
      return valueOf(m, "scorebridge_clips_total", { place: "court-2", outcome: "no_clip" }) === 3 ? m : undefined
    })
    const text = (await get(`${url}/metrics`)).body
    for (const [name, type] of [["scorebridge_clips_total", "counter"], ["scorebridge_press_to_clip_seconds", "histogram"], ["scorebridge_clicks_without_clip", "gauge"]] as const) {
      expect(metrics.get(name)?.type, name).toBe(type)
      expect(text).toMatch(new RegExp(`^# HELP ${name} \\w+ \\w+`, "m"))
    }
    expect(valueOf(metrics, "scorebridge_clips_total", { place: "court-1", outcome: "clip_ready" })).toBe(1)
    expect(valueOf(metrics, "scorebridge_clips_total", { place: "court-1", outcome: "no_clip" })).toBe(0)
    expect(valueOf(metrics, "scorebridge_clips_total", { place: "court-2", outcome: "clip_ready" })).toBe(0)
    // Pressed 14:01:05, found ready by the read of 14:01:14.
    const buckets = metrics.get("scorebridge_press_to_clip_seconds")!.samples
      .filter((s) => s.name.endsWith("_bucket") && s.labels["place"] === "court-1")
      .map((s) => [s.labels["le"], s.value])
    expect(buckets).toEqual([["3", 0], ["5", 0], ["10", 1], ["15", 1], ["20", 1], ["30", 1], ["45", 1], ["60", 1], ["90", 1], ["120", 1], ["180", 1], ["300", 1], ["+Inf", 1]])
    expect(valueOf(metrics, "scorebridge_press_to_clip_seconds_sum", { place: "court-1" })).toBe(9)
    expect(valueOf(metrics, "scorebridge_press_to_clip_seconds_count", { place: "court-1" })).toBe(1)
    expect(valueOf(metrics, "scorebridge_press_to_clip_seconds_count", { place: "court-2" })).toBeUndefined()
    expect(valueOf(metrics, "scorebridge_clicks_without_clip", { place: "court-1" })).toBe(0)
    expect(valueOf(metrics, "scorebridge_clicks_without_clip", { place: "court-2" })).toBe(3)
  })

  describe.skipIf(withoutChromium)("the page in headless Chromium", () => {
    it("shows court 1's clip with its link and court 2's problem line, saved as a screenshot; the line goes when a clip comes", async () => {
      // A viewer in another zone and language: the page still reads the venue's clock.
      const context = await launchChromium(res, { width: 1100, height: 900 }, { timezoneId: "America/Los_Angeles", locale: "en-US" })
      const page = await context.newPage()
      const external: Array<string> = []
      page.on("request", (request) => {
        if (!request.url().startsWith(url)) external.push(request.url())
      })
      await page.goto(`${url}/`)
      const court1 = page.locator('article[data-place="court-1"]')
      const court2 = page.locator('article[data-place="court-2"]')
      const clip = court1.locator('[data-clip="clip-ready"]')
      await clip.waitFor({ timeout: 5_000 })
      expect(await clip.textContent()).toContain("CLIP READY clip ready in 9 s, 2 angles")
      const link = clip.locator("a")
      expect(await link.textContent()).toBe("open clip")
      expect(await link.getAttribute("href")).toBe(videoURL)
      expect(await link.getAttribute("target")).toBe("_blank")
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer")
      expect(await court1.locator("[data-clip-problem]").count()).toBe(0)

      const warning = court2.locator("[data-clip-problem]")
      expect(await warning.isVisible()).toBe(true)
      expect(await warning.textContent()).toBe(`⚠ ${problemText}`)
      // Runs in the page: its DOM, not in this project's types.
      type Styles = { getComputedStyle(e: unknown): { backgroundColor: string; borderLeftColor: string; fontWeight: string } }
      const style = await warning.evaluate((e) => {
        const s = (globalThis as unknown as Styles).getComputedStyle(e)
        return { background: s.backgroundColor, border: s.borderLeftColor, weight: s.fontWeight }
      })
      expect(style).toEqual({ background: "rgb(255, 251, 235)", border: "rgb(217, 119, 6)", weight: "650" })
      // Once on the card, not again in its list of problems; the badge is the scoreboard's and stays.
      expect(await court2.locator(".problems").textContent()).toBe("")
      expect(await court2.locator("[data-badge]").textContent()).toBe("LIVE")
      expect(await court2.locator('[data-clip="no-clip"]').textContent()).toContain("no clip")
      // The warning and the card beside it in one clock: the third dark click, 14:03:20 UTC.
      expect(await court2.locator('[data-clip="no-clip"]').textContent()).toContain(" pressed 23:33:20 ")
      expect(await court2.locator('[data-clip="no-clip"] a').count()).toBe(0)
      expect(await page.locator("#overall").textContent()).toBe("1 PROBLEM")
      expect(await page.locator("#reasons li").allTextContents()).toEqual([`court-2: ${problemText}`])
      expect(external).toEqual([])

      const artifacts = join(process.cwd(), "test-artifacts")
      mkdirSync(artifacts, { recursive: true })
      await page.screenshot({ path: join(artifacts, "status-clips.png"), fullPage: true })
      expect(statSync(join(artifacts, "status-clips.png")).size).toBeGreaterThan(10_000)
      await page.setViewportSize({ width: 390, height: 844 })
      await page.screenshot({ path: join(artifacts, "status-clips-phone.png"), fullPage: true })
      expect(await warning.isVisible()).toBe(true)

      // The camera records again: the next clip clears the line at the next refresh.
      await run(Effect.gen(function*() {
        const back = yield* acceptedClick("court-2", at(14, 10, 0), "mo-back")
        yield* settleClick(back, "clip-ready", { angles: 1, videoURL: "https://media.example/clips/mo-back/angle-0.mp4", readyAt: at(14, 10, 12) })
      }))
      await court2.locator('[data-clip="clip-ready"]').waitFor({ timeout: 5_000 })
      expect(await court2.locator("[data-clip-problem]").count()).toBe(0)
      await page.locator("#overall").filter({ hasText: "ALL LIVE" }).waitFor({ timeout: 5_000 })
      expect((await get(`${url}/healthz`)).status).toBe(200)
    }, 40_000)
  })
})
