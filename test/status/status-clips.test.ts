import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { makeClipFollower } from "../../src/clip-follow-up/clip-follower.ts"
import type { FollowUp, FollowUpSettings } from "../../src/domain/follow-up.ts"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import { NotFound } from "../../src/service/errors.ts"
import type { Moment } from "../../src/service/schemas.ts"
import { BridgeEvents } from "../../src/bus/bridge-events.ts"
import { clipProblemOf, clipRun, lastClickOf } from "../../src/status/clip-status.ts"
import { BridgeStatus, type StatusOptions } from "../../src/status/status-model.ts"
import type { PlaceStatus, StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { acceptedClick, clipsModelLayer, settleClick } from "./clips-model.ts"
import { parsePrometheus, valueOf } from "./prometheus-text.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { clickPayload } from "../support/outbox-payloads.ts"
import { inVenueZone } from "../support/venue-zone.ts"

/**
 * Clip outcomes on the status model: the real outbox with follow-ups, the real clip follower
 * reading a scripted service on virtual time (it settles the follow-ups in the outbox and tells the
 * bus, as in the daemon), and what the card, the health reasons and /metrics make of them.
 */

const options: StatusOptions = {
  // Buttons only, none configured: the badge is LIVE, so only the clips can fail health.
  places: [{ key: "court-1", name: "Court 1", buttonSources: [] }, { key: "court-2", name: "Court 2", buttonSources: [] }],
  buttons: [],
  mqtt: false,
  thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 3_600_000 },
  clips: { followUp: true, problemAfterClicks: 3 }
}
const settings: FollowUpSettings = { firstReadAfterMs: 8_000, noClipAfterMs: 30_000, giveUpAfterMs: 30 * 60_000, readGapMs: 2_000, tightShare: 0.6 }
/** 14:00:00 UTC: 23:30:00 at the venue, in Adelaide (+09:30 in June), the bridge's zone here. */
const t0 = Date.UTC(2025, 5, 14, 14, 0, 0)
inVenueZone("Australia/Adelaide")


/** The service's moments: the dark ones have no clip, the gone ones answer 404. */
const service = { dark: new Set<string>(), gone: new Set<string>() }
const getMoment = (momentKey: string) =>
  service.gone.has(momentKey)
    ? Effect.fail(new NotFound({ method: "GET", path: `/public/moments/${momentKey}`, status: 404 }))
    : Effect.succeed<Moment>({
      key: momentKey,
      momentStatus: "ready",
      videoClips: service.dark.has(momentKey) ? [] : [0, 1].map((rank) => ({
        key: `${momentKey}-${rank}`, rank, videoURL: `https://media.example/${momentKey}/${rank}.mp4`, thumbnailURL: `https://media.example/${momentKey}/${rank}.jpg`
      }))
    })

/** The model with the clip follower running beside it, as the daemon has them. */
const withModel = <A, E>(
  stateDirectory: string,
  body: Effect.Effect<A, E, BridgeStatus | BridgeEvents | Outbox>,
  statusOptions = options
) =>
  Effect.scoped(Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    const bus = yield* BridgeEvents
    yield* Effect.forkScoped(makeClipFollower({
      outbox,
      budget: yield* RateBudget,
      getMoment,
      settled: (event) => bus.publish({ _tag: "ClipSettled", ...event })
    }, settings))
    return yield* body
  })).pipe(Effect.provide(clipsModelLayer(stateDirectory, statusOptions, settings.firstReadAfterMs)))

/** A press at `pressedAt`, accepted (with its moment) 1 s later: its follow-up starts then. */
const click = (place: string, pressedAt: number, momentKey: string, camera: "on" | "off" | "gone" = "on") =>
  Effect.gen(function*() {
    if (camera === "off") service.dark.add(momentKey)
    if (camera === "gone") service.gone.add(momentKey)
    const outbox = yield* wholeOutbox
    yield* TestClock.setTime(pressedAt)
    const item = yield* outbox.append({ place, kind: "click", payload: clickPayload(pressedAt), createdAt: pressedAt })
    yield* TestClock.setTime(pressedAt + 1_000)
    yield* outbox.markDelivered(item.id, { eventKey: "ev-1", momentKey })
    return item.id
  })

/** Polls until the follow-up has its outcome, moving virtual time on. */
const untilSettled = (clickId: number) =>
  Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    for (let step = 0; step < 400; step++) {
      const followUp = yield* outbox.followUpOf(clickId)
      if (followUp?.outcome != null) return followUp
      yield* TestClock.adjust(500)
      yield* Effect.yieldNow
    }
    return assert.fail(`click #${clickId} never settled`)
  })

/** Polls the snapshot until `check` accepts it: counters follow the bus on the model's own fiber. */
const until = <A>(what: string, check: (s: StatusSnapshot) => A | undefined) =>
  Effect.gen(function*() {
    const status = yield* BridgeStatus
    for (let i = 0; i < 200; i++) {
      const found = check(yield* status.snapshot)
      if (found !== undefined) return found
      yield* Effect.yieldNow
    }
    return assert.fail(`the status never showed ${what}: ${JSON.stringify(yield* status.snapshot, null, 1)}`)
  })

const place = (key: string) => (s: StatusSnapshot): PlaceStatus => s.places.find((p) => p.key === key)!
const metrics = Effect.gen(function*() {
  return parsePrometheus(yield* (yield* BridgeStatus).metrics)
})

// The venue's clock, as on the card: 14:02 UTC is 23:32 in Adelaide (same day, within a day of now).
const problemText = "3 clicks without a clip since 23:32:00: is the camera recording?"

describe("BridgeStatus: the last click's clip and the problem line", () => {
  it.effect("a clip ready, then a camera that records nothing: the card, the health reasons and /metrics; kept across a restart, cleared by the next clip", () =>
    Effect.gen(function*() {
      const dir = tempDir("status-clips")
      // Before the follower starts: it wakes every 5 s of virtual time, so no jump of years with it running.
      yield* TestClock.setTime(t0)
      yield* withModel(dir, Effect.gen(function*() {
        const first = yield* click("court-1", t0, "mo-1")
        yield* untilSettled(first)
        const ready = yield* until("the clip of the first click", (s) => place("court-1")(s).lastClick?.outcome === "clip-ready" ? s : undefined)
        // Pressed at t0, accepted 1 s later, read (and found) 8 s after that.
        assert.deepStrictEqual(place("court-1")(ready).lastClick, {
          itemId: first,
          pressedAt: t0,
          outcome: "clip-ready",
          text: "clip ready in 9 s, 2 angles",
          videoURL: "https://media.example/mo-1/0.mp4",
          thumbnailURL: "https://media.example/mo-1/0.jpg"
        })
        assert.isNull(place("court-1")(ready).clipProblem)
        assert.isTrue(ready.healthy)

        // 14:02: the camera stops recording. Two clicks without a clip and an undone one are not a problem yet.
        const b = yield* click("court-1", t0 + 120_000, "mo-2", "off")
        const gone = yield* click("court-1", t0 + 125_000, "mo-3", "gone")
        const c = yield* click("court-1", t0 + 150_000, "mo-4", "off")
        for (const id of [b, gone, c]) yield* untilSettled(id)
        const two = yield* until("the second click without a clip", (s) => place("court-1")(s).lastClick?.itemId === c && place("court-1")(s).lastClick?.outcome === "no-clip" ? s : undefined)
        assert.strictEqual(place("court-1")(two).lastClick!.text, `no clip (service says "ready"): no clip 30 s after the click was accepted: is the camera recording?`)
        assert.isNull(place("court-1")(two).lastClick!.videoURL)
        assert.isNull(place("court-1")(two).clipProblem)
        assert.isTrue(two.healthy, two.reasons.join("\n"))
        assert.strictEqual(valueOf(yield* metrics, "scorebridge_clicks_without_clip", { place: "court-1" }), 0)

        // The third: the problem line, naming the court in the health reasons; the badge stays.
        const d = yield* click("court-1", t0 + 190_000, "mo-5", "off")
        yield* untilSettled(d)
        const problem = yield* until("the problem line", (s) => place("court-1")(s).clipProblem ?? undefined)
        assert.deepStrictEqual(problem, { clicks: 3, since: t0 + 120_000, text: problemText })
        const snapshot = yield* until("unhealthy", (s) => s.healthy ? undefined : s)
        assert.deepStrictEqual(snapshot.reasons, [`court-1: ${problemText}`])
        assert.isFalse(place("court-1")(snapshot).live)
        assert.strictEqual(place("court-1")(snapshot).source.badge, "LIVE")
        assert.isTrue(place("court-2")(snapshot).live)
        assert.isNull(place("court-2")(snapshot).clipProblem)
        assert.isNull(place("court-2")(snapshot).lastClick)

        // A click still waiting for its clip is the last click, and changes nothing of the problem.
        const waiting = yield* click("court-1", t0 + 240_000, "mo-6", "off")
        const open = yield* until("the waiting click", (s) => place("court-1")(s).lastClick?.itemId === waiting ? place("court-1")(s) : undefined)
        assert.deepInclude(open.lastClick, { outcome: null, text: "waiting for its clip", videoURL: null })
        assert.deepStrictEqual(open.clipProblem, problem)

        // Counted as the follower told them, timed from press to the read that found the clip.
        let m = yield* metrics
        for (let i = 0; i < 200 && valueOf(m, "scorebridge_clips_total", { place: "court-1", outcome: "no_clip" }) !== 3; i++) {
          yield* Effect.yieldNow
          m = yield* metrics
        }
        assert.strictEqual(m.get("scorebridge_clips_total")?.type, "counter")
        assert.strictEqual(m.get("scorebridge_press_to_clip_seconds")?.type, "histogram")
        assert.strictEqual(m.get("scorebridge_clicks_without_clip")?.type, "gauge")
        const court1 = { place: "court-1" }
        assert.strictEqual(valueOf(m, "scorebridge_clips_total", { ...court1, outcome: "clip_ready" }), 1)
        assert.strictEqual(valueOf(m, "scorebridge_clips_total", { ...court1, outcome: "no_clip" }), 3)
        assert.strictEqual(valueOf(m, "scorebridge_clips_total", { ...court1, outcome: "deleted" }), 1)
        assert.strictEqual(valueOf(m, "scorebridge_clips_total", { ...court1, outcome: "unchecked" }), 0)
        assert.strictEqual(valueOf(m, "scorebridge_press_to_clip_seconds_bucket", { ...court1, le: "5" }), 0)
        assert.strictEqual(valueOf(m, "scorebridge_press_to_clip_seconds_bucket", { ...court1, le: "10" }), 1)
        assert.strictEqual(valueOf(m, "scorebridge_press_to_clip_seconds_bucket", { ...court1, le: "300" }), 1)
        assert.strictEqual(valueOf(m, "scorebridge_press_to_clip_seconds_bucket", { ...court1, le: "+Inf" }), 1)
        assert.strictEqual(valueOf(m, "scorebridge_press_to_clip_seconds_sum", court1), 9)
        assert.strictEqual(valueOf(m, "scorebridge_press_to_clip_seconds_count", court1), 1)
        assert.strictEqual(valueOf(m, "scorebridge_clicks_without_clip", court1), 3)
        assert.strictEqual(valueOf(m, "scorebridge_clicks_without_clip", { place: "court-2" }), 0)
        yield* untilSettled(waiting)
      }))

      // After a restart the outbox still knows: no event has been told to this model.
      yield* withModel(dir, Effect.gen(function*() {
        const restarted = yield* until("the problem after the restart", (s) => place("court-1")(s).clipProblem ?? undefined)
        assert.deepStrictEqual(restarted, { clicks: 4, since: t0 + 120_000, text: "4 clicks without a clip since 23:32:00: is the camera recording?" })
        assert.strictEqual(valueOf(yield* metrics, "scorebridge_clicks_without_clip", { place: "court-1" }), 4)

        // The camera records again: the next clip clears the problem.
        const back = yield* click("court-1", t0 + 600_000, "mo-7")
        yield* untilSettled(back)
        const fine = yield* until("the problem cleared", (s) => place("court-1")(s).lastClick?.outcome === "clip-ready" ? s : undefined)
        assert.isNull(place("court-1")(fine).clipProblem)
        assert.isTrue(fine.healthy, fine.reasons.join("\n"))
        assert.isTrue(place("court-1")(fine).live)
        assert.strictEqual(valueOf(yield* metrics, "scorebridge_clicks_without_clip", { place: "court-1" }), 0)
      }))
    }))

  it.effect("a long run is counted past the first few follow-ups read, back to the last clip", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(t0)
      yield* withModel(tempDir("status-clips"), Effect.gen(function*() {
        yield* settleClick(yield* acceptedClick("court-2", t0 - 3_600_000, "mo-long-ready"), "clip-ready", { angles: 1, videoURL: "https://m/r.mp4", readyAt: t0 })
        for (let n = 0; n < 20; n++) {
          yield* settleClick(yield* acceptedClick("court-2", t0 - 1_800_000 + n * 60_000, `mo-long-${n}`), "no-clip", { reason: "none" })
        }
        const problem = yield* until("the long run", (s) => place("court-2")(s).clipProblem ?? undefined)
        assert.deepStrictEqual(problem, { clicks: 20, since: t0 - 1_800_000, text: "20 clicks without a clip since 23:00:00: is the camera recording?" })
      }))
    }))

  it.effect("with clips.followUp false nothing about clips is shown, whatever the outbox holds", () =>
    Effect.gen(function*() {
      const off: StatusOptions = { ...options, clips: { followUp: false, problemAfterClicks: 3 } }
      yield* TestClock.setTime(t0)
      yield* withModel(tempDir("status-clips"), Effect.gen(function*() {
        for (let n = 0; n < 3; n++) yield* untilSettled(yield* click("court-1", t0 + n * 60_000, `mo-off-${n}`, "off"))
        const snapshot = yield* until("the snapshot", (s) => s)
        assert.isNull(place("court-1")(snapshot).lastClick)
        assert.isNull(place("court-1")(snapshot).clipProblem)
        assert.isTrue(snapshot.healthy, snapshot.reasons.join("\n"))
        const m = yield* metrics
        assert.isUndefined(m.get("scorebridge_clicks_without_clip"))
      }), off)
    }))
})

/** Follow-ups as the outbox lists them, newest click first. */
const followUps = (...outcomes: ReadonlyArray<FollowUp["outcome"]>): Array<FollowUp> =>
  outcomes.map((outcome, i) => ({
    clickId: 100 - i, place: "court-1", momentKey: `mo-${100 - i}`, pressedAt: t0 - i * 60_000, acceptedAt: t0 - i * 60_000 + 500,
    reads: 1, nextReadAt: 0, outcome, detail: outcome === "clip-ready" ? { angles: 1, videoURL: "https://m/1.mp4", readyAt: t0 - i * 60_000 + 12_000 } : {},
    settledAt: outcome === null ? null : t0, lastError: null
  }))

describe("the run of clicks without a clip", () => {
  it("counts no-clip back to the last clip; deleted, unchecked and waiting ones neither count nor end it", () => {
    assert.deepStrictEqual(clipRun(followUps(null, "no-clip", "deleted", "unchecked", "no-clip", "clip-ready", "no-clip")), {
      clicks: 2, since: t0 - 4 * 60_000, ended: true
    })
    assert.deepStrictEqual(clipRun(followUps("clip-ready", "no-clip", "no-clip", "no-clip")), { clicks: 0, since: null, ended: true })
    assert.deepStrictEqual(clipRun(followUps("no-clip", "unchecked", "no-clip")), { clicks: 2, since: t0 - 2 * 60_000, ended: false })
    assert.deepStrictEqual(clipRun([]), { clicks: 0, since: null, ended: false })
  })

  it("is a problem from problemAfterClicks on, since the first of them was pressed", () => {
    assert.isNull(clipProblemOf(followUps("no-clip", "no-clip", "clip-ready"), 3, t0))
    assert.isNull(clipProblemOf(followUps("no-clip", "deleted", "no-clip", "clip-ready", "no-clip"), 3, t0))
    assert.deepStrictEqual(clipProblemOf(followUps("no-clip", "deleted", "no-clip", "unchecked", "no-clip", "clip-ready"), 3, t0), {
      clicks: 3, since: t0 - 4 * 60_000, text: "3 clicks without a clip since 23:26:00: is the camera recording?"
    })
    assert.strictEqual(clipProblemOf(followUps("no-clip"), 1, t0)?.text, "1 click without a clip since 23:30:00: is the camera recording?")
    // Unchecked alone is not a camera problem: the bridge does not know.
    assert.isNull(clipProblemOf(followUps("unchecked", "unchecked", "unchecked"), 1, t0))
  })

  it("names the venue's date too once the run began more than a day before", () => {
    const hour = 3_600_000
    assert.strictEqual(clipProblemOf(followUps("no-clip"), 1, t0 + 23 * hour)?.text, "1 click without a clip since 23:30:00: is the camera recording?")
    assert.strictEqual(clipProblemOf(followUps("no-clip"), 1, t0 + 25 * hour)?.text, "1 click without a clip since 23:30:00 on 2025-06-14: is the camera recording?")
    // 15:00 UTC on the 14th is half past midnight on the 15th at the venue: its date, not UTC's.
    const afterMidnight = [{ ...followUps("no-clip")[0]!, pressedAt: Date.UTC(2025, 5, 14, 15, 0, 0) }]
    assert.strictEqual(clipProblemOf(afterMidnight, 1, t0 + 72 * hour)?.text, "1 click without a clip since 00:30:00 on 2025-06-15: is the camera recording?")
  })

  it("the last click is the newest followed one, its links only when its clip is ready", () => {
    assert.isNull(lastClickOf([]))
    assert.deepStrictEqual(lastClickOf(followUps("clip-ready")), {
      itemId: 100, pressedAt: t0, outcome: "clip-ready", text: "clip ready in 12 s, 1 angle", videoURL: "https://m/1.mp4", thumbnailURL: null
    })
    assert.deepInclude(lastClickOf(followUps("deleted", "clip-ready")), { itemId: 100, outcome: "deleted", videoURL: null })
  })
})
