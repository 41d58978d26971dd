import { mkdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Outbox } from "../../src/delivery/outbox.ts"
import { BridgeEvents, type BridgeEvent } from "../../src/bus/bridge-events.ts"
import type { Finish } from "../../src/domain/race.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import type { StatusOptions } from "../../src/status/status-model.ts"
import { statusServerLayer } from "../../src/status/status-server.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { farViewer, inVenueZone, venueTime } from "../support/venue-zone.ts"
import { launchChromium, withoutChromium } from "./chromium.ts"
import { clipsModelLayer, settleClick } from "./clips-model.ts"
import { parsePrometheus, valueOf } from "./prometheus-text.ts"
import { finish, finishClick, finishEvent, raceReading } from "./race-events.ts"
import { get } from "./status-daemon.ts"

/**
 * A pool and a water polo court on the status server: the real outbox (finish clicks, their
 * follow-ups), the bus fed with what the colorado-cts decoder and the race tracker publish.
 * /status.json and /metrics, and the page in headless Chromium, seen from a phone in another zone.
 */

inVenueZone()
const videoURL = "https://media.example/clips/lane-4/angle-0.mp4"
// Device texts: shown as text, never as markup.
const hostileLabel = "channel <b>14</b>"

const options: StatusOptions = {
  places: [
    { key: "pool", name: "Pool", sport: "swimming", scoreboard: { link: "serial", target: "/dev/ttyPOOL" }, buttonSources: [] },
    { key: "polo", name: "Polo", sport: "waterpolo", scoreboard: { link: "serial", target: "/dev/ttyPOLO" }, buttonSources: [] }
  ],
  buttons: [],
  mqtt: false,
  thresholds: { noDataAfterMs: 60_000, stuckAfterMs: 3_600_000 },
  clips: { followUp: true, problemAfterClicks: 3 }
}

describe("a pool's card on the status server", () => {
  const res = resources()
  let url: string
  let run: <A, E>(effect: Effect.Effect<A, E, Outbox | BridgeEvents>) => Promise<A>
  const start = Date.now() - 40_000
  const touches: Record<string, Finish> = {}
  const publish = (event: BridgeEvent) => run(BridgeEvents.use((bus) => bus.publish(event)))

  beforeAll(async () => {
    const listen = `127.0.0.1:${await freePort()}`
    url = `http://${listen}`
    const model = clipsModelLayer(tempDir("status-race-page", res), options, 10_000)
    const rt = ManagedRuntime.make(statusServerLayer(listen).pipe(Layer.provideMerge(model)))
    run = (effect) => rt.runPromise(effect)
    res.defer(() => rt.dispose())

    for (const place of ["pool", "polo"]) await publish({ _tag: "Link", place, state: { _tag: "connected", target: `/dev/tty${place.toUpperCase()}` } })
    await publish(finishEvent("pool", finish(2, 1, "29.10", 29_100, start - 300_000, { event: 11, heat: 1 })))
    touches["first"] = finish(4, 1, "28.91", 28_910, start)
    touches["second"] = finish(5, 2, "29.40", 29_400, start)
    touches["third"] = finish(3, 3, "30.02", 30_020, start)
    const ids = await run(Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const append = (f: Finish) => outbox.append({ place: "pool", kind: "click", payload: finishClick(f), createdAt: f.at })
      const first = yield* append(touches["first"]!)
      yield* outbox.markDelivered(first.id, { eventKey: "meet-1", momentKey: "mo-lane-4" })
      yield* settleClick(first.id, "clip-ready", { angles: 1, videoURL, readyAt: touches["first"]!.at + 11_000 })
      const second = yield* append(touches["second"]!)
      yield* outbox.markDelivered(second.id, { eventKey: "meet-1", momentKey: "mo-lane-5" })
      return { first: first.id, second: second.id, third: (yield* append(touches["third"]!)).id }
    }))
    await publish(finishEvent("pool", touches["second"]!, ids.second))
    await publish(finishEvent("pool", touches["first"]!, ids.first))
    await publish(finishEvent("pool", touches["third"]!, ids.third))
    await publish(raceReading("pool", Date.now(), { clock: "31.2", clockMs: 31_200, event: 12, heat: 3 }))
    await publish({
      _tag: "Reading",
      place: "polo",
      reading: { receivedAt: Date.now(), clock: "6:41", shown: [{ label: "channel 13", text: "  0 0  0" }, { label: hostileLabel, text: "<i>1</i>" }] },
      stats: { frames: 4, badFrames: 0, overlong: 0, skippedBytes: 0 }
    })
    await eventually("the status server", async () => (await fetch(`${url}/healthz`).then((r) => r.status).catch(() => undefined)))
  }, 20_000)
  afterAll(() => res.release())

  it("/status.json: the pool's race block, the court's shown channels; /metrics counts the finishes", async () => {
    const snapshot = await eventually("the finishes on the card", async () => {
      const s = JSON.parse((await get(`${url}/status.json`)).body) as StatusSnapshot
      return s.places[0]!.race?.finishes.length === 4 ? s : undefined
    })
    const [pool, polo] = snapshot.places
    expect(pool!.lastReadingText).toBe("Event 12 · Heat 3 · 31.2")
    expect(pool!.race).toMatchObject({ event: 12, heat: 3, clock: "31.2", phase: "running", blanked: false })
    expect(pool!.race!.finishes.map((f) => [f.race, f.place, f.lane, f.time, f.at])).toEqual([
      [0, 1, 4, "28.91", touches["first"]!.at], [0, 2, 5, "29.40", touches["second"]!.at], [0, 3, 3, "30.02", touches["third"]!.at],
      [1, 1, 2, "29.10", start - 300_000 + 29_100]
    ])
    expect(pool!.race!.finishes[0]!.clip).toMatchObject({ outcome: "clip-ready", videoURL })
    expect(polo!.race).toBeNull()
    expect(polo!.lastReadingText).toBe("6:41")
    expect(polo!.lastReading!.shown).toEqual([{ label: "channel 13", text: "  0 0  0" }, { label: hostileLabel, text: "<i>1</i>" }])

    // The pool's timeline: its finishes by place, no Home/Away rows or score backlog; the water polo court keeps its score chart.
    const poolTimeline = (await get(`${url}/places/pool/timeline.svg?width=390`)).body
    expect(poolTimeline).toContain('data-layout="races"')
    expect(poolTimeline).toMatch(/data-finish-label="\d+">L4</u)
    expect(poolTimeline).not.toMatch(/data-team-row|Scores: /u)
    expect((await get(`${url}/places/polo/timeline.svg?width=390`)).body).toContain('data-layout="scores"')

    const text = (await get(`${url}/metrics`)).body
    const metrics = parsePrometheus(text)
    expect(metrics.get("scorebridge_finishes_total")?.type).toBe("counter")
    expect(text).toMatch(/^# HELP scorebridge_finishes_total \w+/mu)
    expect(valueOf(metrics, "scorebridge_finishes_total", { place: "pool" })).toBe(4)
    // Water polo has no race: no finish series for it.
    expect(valueOf(metrics, "scorebridge_finishes_total", { place: "polo" })).toBeUndefined()
  })

  describe.skipIf(withoutChromium)("the page in headless Chromium", () => {
    it("shows the race (clock, event, heat, phase), the finishes by place with the venue's touch times and clip states, and a console's shown channels as text", async () => {
      const context = await launchChromium(res, { width: 1100, height: 900 }, farViewer)
      const page = await context.newPage()
      const external: Array<string> = []
      page.on("request", (request) => {
        if (!request.url().startsWith(url)) external.push(request.url())
      })
      await page.goto(`${url}/`)
      const pool = page.locator('article[data-place="pool"]')
      await pool.locator("[data-finish]").nth(3).waitFor({ timeout: 5_000 })
      expect(await pool.locator("[data-race-clock]").textContent()).toBe("31.2")
      expect(await pool.locator("[data-race-event]").textContent()).toBe("Event 12 · Heat 3 ")
      expect(await pool.locator("[data-race-phase]").textContent()).toBe("RACING")
      // The race line says it all: no second "Scoreboard" line repeating it.
      expect(await pool.locator("dt").allTextContents()).not.toContain("Scoreboard")
      expect(await pool.locator("[data-finishes] h4").allTextContents()).toEqual(["Event 12 · Heat 3", "Event 11 · Heat 1 (earlier race)"])

      const rows = pool.locator("[data-finishes] [data-finish]")
      const cells = async (i: number) => (await rows.nth(i).locator(":scope > *").allTextContents()).map((t) => t.trim())
      expect(await cells(0)).toEqual(["1st", "L4", "28.91", venueTime(touches["first"]!.at), "CLIP READY open clip"])
      expect(await cells(1)).toEqual(["2nd", "L5", "29.40", venueTime(touches["second"]!.at), "WAITING"])
      expect(await cells(2)).toEqual(["3rd", "L3", "30.02", venueTime(touches["third"]!.at), "QUEUED"])
      expect(await cells(3)).toEqual(["1st", "L2", "29.10", venueTime(start - 300_000 + 29_100), "no click"])
      const link = rows.nth(0).locator("a")
      expect(await link.getAttribute("href")).toBe(videoURL)
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer")
      expect(await rows.nth(0).locator('[data-finish-clip="clip-ready"]').getAttribute("title")).toBe("clip ready in 11 s, 1 angle")

      const polo = page.locator('article[data-place="polo"]')
      expect(await polo.locator('[data-shown="channel 13"]').textContent()).toBe("  0 0  0")
      expect(await polo.locator("[data-shown]").nth(1).textContent()).toBe("<i>1</i>")
      expect(await polo.locator("dt").allTextContents()).toContain(hostileLabel)
      expect(await polo.locator("i, b").count()).toBe(0)
      expect(await polo.locator("[data-finishes]").count()).toBe(0)
      expect(external).toEqual([])

      const artifacts = join(process.cwd(), "test-artifacts")
      mkdirSync(artifacts, { recursive: true })
      await page.screenshot({ path: join(artifacts, "status-race.png"), fullPage: true })
      expect(statSync(join(artifacts, "status-race.png")).size).toBeGreaterThan(10_000)
      await page.setViewportSize({ width: 390, height: 844 })
      // The timeline is fetched again for the phone's width at the page's next refresh: the screenshot shows that one.
      await eventually("the pool's timeline drawn for the phone", async () => {
        const shown = await pool.locator("img[data-timeline]").evaluate((e) => {
          const i = e as unknown as { complete: boolean; naturalWidth: number }
          return i.complete && i.naturalWidth > 0 && i.naturalWidth <= 400
        })
        return shown ? true : undefined
      }, { timeoutMs: 10_000 })
      await page.screenshot({ path: join(artifacts, "status-race-phone.png"), fullPage: true })

      // The operator resets the clock: waiting for the next start, the race's finishes stay.
      await publish(raceReading("pool", Date.now(), { clock: "0.0", clockMs: 0, event: 12, heat: 4 }))
      await pool.locator("[data-race-phase]").filter({ hasText: "WAITING FOR THE START" }).waitFor({ timeout: 5_000 })
      expect(await pool.locator("[data-race-event]").textContent()).toBe("Event 12 · Heat 4 ")
      expect(await rows.count()).toBe(4)
    }, 40_000)
  })
})

describe("a pool's card on a status server started again", () => {
  const res = resources()
  let url: string
  const start = Date.now() - 10 * 60_000
  const won = finish(4, 1, "28.91", 28_910, start)
  const second = finish(5, 2, "29.40", 29_400, start)

  beforeAll(async () => {
    const directory = tempDir("status-race-restart", res)
    // Before the restart: the finish rule's clicks in the outbox, the winner's clip ready.
    const before = ManagedRuntime.make(Layer.merge(Outbox.layer({ stateDirectory: directory, followUps: { firstReadAfterMs: 10_000 } }), BridgeEvents.layer))
    await before.runPromise(Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const first = yield* outbox.append({ place: "pool", kind: "click", payload: finishClick(won), createdAt: won.at })
      yield* outbox.markDelivered(first.id, { eventKey: "meet-1", momentKey: "mo-lane-4" })
      yield* settleClick(first.id, "clip-ready", { angles: 1, videoURL, readyAt: won.at + 11_000 })
      yield* outbox.append({ place: "pool", kind: "click", payload: finishClick(second), createdAt: second.at })
    }))
    await before.dispose()
    const listen = `127.0.0.1:${await freePort()}`
    url = `http://${listen}`
    const rt = ManagedRuntime.make(statusServerLayer(listen).pipe(Layer.provideMerge(clipsModelLayer(directory, options, 10_000))))
    res.defer(() => rt.dispose())
    await rt.runPromise(Effect.void)
    await eventually("the status server", async () => (await fetch(`${url}/healthz`).then((r) => r.status).catch(() => undefined)))
  }, 20_000)
  afterAll(() => res.release())

  it("lists the finishes made before the restart, with their clips, while the board is not read yet", async () => {
    const snapshot = JSON.parse((await get(`${url}/status.json`)).body) as StatusSnapshot
    expect(snapshot.places[0]!.race).toMatchObject({ event: null, heat: null, clock: null, phase: "unread" })
    expect(snapshot.places[0]!.race!.finishes.map((f) => [f.place, f.lane, f.time, f.at, f.answer?.state])).toEqual([
      [1, 4, "28.91", won.at, "delivered"], [2, 5, "29.40", second.at, "queued"]
    ])
    expect(snapshot.places[1]!.race).toBeNull()
  })

  it.skipIf(withoutChromium)("on a phone: the race line says the board is not read yet, the finishes show their clip states", async () => {
    const context = await launchChromium(res, { width: 390, height: 844 }, farViewer)
    const page = await context.newPage()
    await page.goto(`${url}/`)
    const pool = page.locator('article[data-place="pool"]')
    await pool.locator("[data-finish]").nth(1).waitFor({ timeout: 5_000 })
    expect(await pool.locator("[data-race-phase]").textContent()).toBe("BOARD NOT READ YET")
    expect((await pool.locator("[data-race-event]").textContent())?.trim()).toBe("")
    expect(await pool.locator("[data-race-clock]").textContent()).toBe("—")
    const rows = pool.locator("[data-finishes] [data-finish]")
    expect((await rows.nth(0).locator(":scope > *").allTextContents()).map((t) => t.trim())).toEqual(["1st", "L4", "28.91", venueTime(won.at), "CLIP READY open clip"])
    expect((await rows.nth(1).locator(":scope > *").allTextContents()).map((t) => t.trim())).toEqual(["2nd", "L5", "29.40", venueTime(second.at), "QUEUED"])
    await page.screenshot({ path: join(process.cwd(), "test-artifacts", "status-race-restart-phone.png"), fullPage: true })
  }, 30_000)
})
