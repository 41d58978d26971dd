import { describe, expect, it } from "vitest"
import { decideUpgradeWindow, type DaemonAnswer, type PlaceActivity, type WindowInput } from "../../src/upgrade/upgrade-window.ts"

const hour = 3_600_000
const now = Date.parse("2026-05-02T14:00:00Z")
const defaults = { waitForLiveEvents: true, waitForPendingClicks: true, maxDeferHours: 48 }

const idle = (key: string): PlaceActivity => ({ key, liveEventKey: null, clicksWaiting: 0, undosWaiting: 0 })
const answered = (...places: ReadonlyArray<PlaceActivity>): DaemonAnswer => ({ _tag: "Answered", places })

const decide = (daemon: DaemonAnswer, input: Partial<Omit<WindowInput, "daemon">> = {}) =>
  decideUpgradeWindow({ daemon, options: defaults, now, deferredSince: null, ...input })

describe("the upgrade window", () => {
  it("is open when no court has a live event or a click waiting, and clears a deferral", () => {
    expect(decide(answered(idle("court-1"), idle("court-2")), { deferredSince: now - 5 * hour })).toEqual({
      ok: true,
      reasons: [],
      deferredSince: null,
      summary: "good moment to upgrade: no court has a live event or a click waiting"
    })
  })

  it("is closed while a court's event is live, naming the court and the event", () => {
    const verdict = decide(answered(idle("court-1"), { ...idle("court-2"), liveEventKey: "EVT-1" }))
    expect(verdict.ok).toBe(false)
    expect(verdict.reasons).toEqual(["court-2: event EVT-1 is live"])
    expect(verdict.deferredSince, "the deferral starts now").toBe(now)
    expect(verdict.summary).toBe("not a good moment to upgrade: deferred since 2026-05-02T14:00:00Z; upgrades run anyway from 2026-05-04T14:00:00Z (upgrades.window.maxDeferHours)")
  })

  it("is closed while clicks or undos wait, with their count per court", () => {
    const verdict = decide(answered(
      { ...idle("court-1"), clicksWaiting: 2 },
      { ...idle("court-2"), clicksWaiting: 1, undosWaiting: 1 },
      { ...idle("court-3"), undosWaiting: 3 },
      idle("court-4")
    ))
    expect(verdict.ok).toBe(false)
    expect(verdict.reasons).toEqual(["court-1: 2 clicks waiting", "court-2: 1 click and 1 undo waiting", "court-3: 3 undos waiting"])
  })

  it("names both reasons of a court that has both", () => {
    expect(decide(answered({ key: "court-1", liveEventKey: "E9", clicksWaiting: 1, undosWaiting: 0 })).reasons)
      .toEqual(["court-1: event E9 is live", "court-1: 1 click waiting"])
  })

  it("ignores live events when waitForLiveEvents is off, and clicks when waitForPendingClicks is off", () => {
    const busy = answered({ key: "court-1", liveEventKey: "E1", clicksWaiting: 0, undosWaiting: 0 }, { ...idle("court-2"), clicksWaiting: 4 })
    expect(decide(busy, { options: { ...defaults, waitForLiveEvents: false } }).reasons).toEqual(["court-2: 4 clicks waiting"])
    expect(decide(busy, { options: { ...defaults, waitForPendingClicks: false } }).reasons).toEqual(["court-1: event E1 is live"])
    const neither = decide(busy, { options: { ...defaults, waitForLiveEvents: false, waitForPendingClicks: false } })
    expect(neither).toMatchObject({ ok: true, reasons: [], summary: "good moment to upgrade: upgrades.window waits neither for live events nor for clicks" })
    expect(decide(answered(idle("court-1")), { options: { ...defaults, waitForLiveEvents: false } }).summary)
      .toBe("good moment to upgrade: no court has a click waiting")
  })

  it("is open when the bridge is not running: nothing to interrupt, said so", () => {
    expect(decide({ _tag: "NotRunning", at: "127.0.0.1:8370" }, { deferredSince: now - hour })).toEqual({
      ok: true,
      reasons: [],
      deferredSince: null,
      summary: "good moment to upgrade: scorebridge is not running (nothing listens at 127.0.0.1:8370), nothing to interrupt"
    })
  })

  it("is closed when the bridge runs but gives no usable status: a match may be on", () => {
    const verdict = decide({ _tag: "NotAnswering", at: "127.0.0.1:8370", detail: "no answer within 2000 ms" })
    expect(verdict.ok).toBe(false)
    expect(verdict.reasons).toEqual(["scorebridge at 127.0.0.1:8370 did not answer (no answer within 2000 ms): cannot tell whether a match is on"])
  })

  describe("after deferring for maxDeferHours in a row", () => {
    const live = answered({ ...idle("court-1"), liveEventKey: "FOREVER" })

    it("keeps the first deferral's time while it defers", () => {
      expect(decide(live, { deferredSince: now - 47 * hour })).toMatchObject({ ok: false, deferredSince: now - 47 * hour })
    })

    it("lets the upgrade run anyway, still naming what is busy, and keeps counting until a window is found", () => {
      const verdict = decide(live, { deferredSince: now - 48 * hour })
      expect(verdict).toEqual({
        ok: true,
        reasons: ["court-1: event FOREVER is live"],
        deferredSince: now - 48 * hour,
        summary: "upgrading anyway: deferred since 2026-04-30T14:00:00Z, 48 h, longer than upgrades.window.maxDeferHours (48 h)"
      })
      expect(decide(live, { deferredSince: now - 49 * hour, options: { ...defaults, maxDeferHours: 72 } }).ok).toBe(false)
    })

    it("starts anew when the remembered start lies in the future (the clock was set back)", () => {
      expect(decide(live, { deferredSince: now + 10 * hour })).toMatchObject({ ok: false, deferredSince: now })
    })

    it("counts an unanswering bridge too", () => {
      expect(decide({ _tag: "NotAnswering", at: "127.0.0.1:8370", detail: "HTTP 500 for /status.json" }, { deferredSince: now - 48 * hour }).ok).toBe(true)
    })
  })
})
