import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { makeClipFollower, type ClipSettled } from "../../src/clip-follow-up/clip-follower.ts"
import type { ClipOutcome, FollowUp, FollowUpSettings } from "../../src/domain/follow-up.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import { NotFound, ServerError } from "../../src/service/errors.ts"
import type { Moment } from "../../src/service/schemas.ts"
import { advanceUntil } from "../delivery/scheduler-ports.ts"

/**
 * The follower's rules on virtual time: when it reads, what a read means, how it shares the
 * token's budget. The outbox's side (rows written with the click's settlement, kept across a
 * restart) is in test/delivery/outbox-follow-ups.test.ts; the whole path with the daemon, the
 * simulator and its cameras in test/clip-follow-up/clip-outcomes-e2e.test.ts.
 */
const t0 = 1_000_000
const settings: FollowUpSettings = { firstReadAfterMs: 10_000, noClipAfterMs: 180_000, giveUpAfterMs: 30 * 60_000, readGapMs: 2_000, tightShare: 0.6 }

/** The follow-ups the outbox would hold, in memory. */
const memoryFollowUps = () => {
  const rows = new Map<number, FollowUp>()
  const port = {
    dueFollowUps: (now: number, limit: number) =>
      Effect.sync(() =>
        [...rows.values()].filter((f) => f.outcome === null && f.nextReadAt <= now)
          .sort((a, b) => a.nextReadAt - b.nextReadAt || a.clickId - b.clickId).slice(0, limit)
      ),
    nextFollowUpAt: Effect.sync(() => {
      const open = [...rows.values()].filter((f) => f.outcome === null).map((f) => f.nextReadAt)
      return open.length === 0 ? undefined : Math.min(...open)
    }),
    followUpRead: (clickId: number, nextReadAt: number, lastError?: string) =>
      Effect.sync(() => {
        const f = rows.get(clickId)!
        rows.set(clickId, { ...f, reads: f.reads + 1, nextReadAt, lastError: lastError ?? null })
      }),
    settleFollowUp: (clickId: number, outcome: ClipOutcome, detail: object, options: { read: boolean; lastError?: string }) =>
      Effect.map(Clock.currentTimeMillis, (settledAt) => {
        const f = rows.get(clickId)!
        if (f.outcome !== null) return false
        rows.set(clickId, { ...f, reads: f.reads + (options.read ? 1 : 0), outcome, detail, settledAt, lastError: options.lastError ?? null })
        return true
      })
  }
  const accept = (clickId: number, acceptedAt: number) =>
    rows.set(clickId, {
      clickId, place: "court-1", momentKey: `mo-${clickId}`, pressedAt: acceptedAt - 500, acceptedAt,
      reads: 0, nextReadAt: acceptedAt + settings.firstReadAfterMs, outcome: null, detail: null, settledAt: null, lastError: null
    })
  return { rows, port, accept }
}

/** The service's moments: what each read answers, by moment key and the time of the read. */
const scriptedMoments = (answer: (momentKey: string, now: number) => Moment | "404" | "503") => {
  const reads: Array<{ readonly momentKey: string; readonly at: number }> = []
  const getMoment = (momentKey: string) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      reads.push({ momentKey, at: now })
      const a = answer(momentKey, now)
      if (a === "404") return yield* new NotFound({ method: "GET", path: `/public/moments/${momentKey}`, status: 404 })
      if (a === "503") return yield* new ServerError({ method: "GET", path: `/public/moments/${momentKey}`, status: 503 })
      return a
    })
  return { reads, getMoment }
}

const clips = (n: number): Moment["videoClips"] =>
  Array.from({ length: n }, (_, rank) => ({ key: `cl-${rank}`, rank, videoURL: `http://media/cl-${rank}.mp4`, thumbnailURL: `http://media/cl-${rank}.jpg` }))

const setup = (answer: Parameters<typeof scriptedMoments>[0], requestsPerSecond = 1) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(t0)
    const budget = Context.get(yield* Layer.build(RateBudget.layer({ requestsPerSecond })), RateBudget)
    const store = memoryFollowUps()
    const service = scriptedMoments(answer)
    const settled: Array<ClipSettled> = []
    yield* Effect.forkScoped(makeClipFollower({
      outbox: store.port,
      budget,
      getMoment: service.getMoment,
      settled: (event) => Effect.sync(() => void settled.push(event))
    }, settings))
    return { budget, store, service, settled }
  })

const readTimes = (reads: ReadonlyArray<{ readonly at: number }>, acceptedAt: number) => reads.map((r) => r.at - acceptedAt)

describe("clip follower: reads and outcomes", () => {
  it.effect("a clip ready on time costs one read, at the first-read delay, and is told with its angles and link", () =>
    Effect.gen(function*() {
      const { store, service, settled } = yield* setup((_, now) => ({
        key: "mo-1", momentStatus: "ready", videoClips: now >= t0 + 3_000 ? clips(2) : []
      }))
      store.accept(1, t0)
      yield* advanceUntil(() => settled.length === 1, "the outcome", 60_000, 100)
      expect(readTimes(service.reads, t0)).toEqual([10_000])
      expect(settled[0]).toEqual({
        place: "court-1", clickItemId: 1, momentKey: "mo-1", outcome: "clip-ready", pressedAt: t0 - 500, acceptedAt: t0,
        detail: { angles: 2, videoURL: "http://media/cl-0.mp4", thumbnailURL: "http://media/cl-0.jpg", momentStatus: "ready", readyAt: t0 + 10_000 }
      })
      expect(store.rows.get(1)).toMatchObject({ outcome: "clip-ready", reads: 1 })
    }))

  it.effect("a clip that comes late is read for at tripling intervals until it is there", () =>
    Effect.gen(function*() {
      const { store, service, settled } = yield* setup((_, now) => ({ key: "mo-1", videoClips: now >= t0 + 40_000 ? clips(1) : [{ key: "cl-0" }] }))
      store.accept(1, t0)
      yield* advanceUntil(() => settled.length === 1, "the outcome", 120_000, 100)
      expect(readTimes(service.reads, t0)).toEqual([10_000, 30_000, 90_000])
      expect(settled[0]?.detail).toMatchObject({ angles: 1, readyAt: t0 + 90_000 })
    }))

  it.effect("no clip by the deadline (a camera that does not record): no-clip after four reads, the status as received", () =>
    Effect.gen(function*() {
      const { store, service, settled } = yield* setup(() => ({ key: "mo-1", momentStatus: "weird-new-status", videoClips: [] }))
      store.accept(1, t0)
      yield* advanceUntil(() => settled.length === 1, "the outcome", 400_000, 500)
      expect(readTimes(service.reads, t0)).toEqual([10_000, 30_000, 90_000, 180_000])
      expect(settled[0]?.outcome).toBe("no-clip")
      expect(settled[0]?.detail.momentStatus).toBe("weird-new-status")
      expect(settled[0]?.detail.reason).toContain("is the camera recording?")
    }))

  it.effect("a moment that is gone (404) ends its follow-up as deleted", () =>
    Effect.gen(function*() {
      const { store, settled } = yield* setup(() => "404")
      store.accept(1, t0)
      yield* advanceUntil(() => settled.length === 1, "the outcome", 60_000, 100)
      expect(settled[0]?.outcome).toBe("deleted")
      expect(store.rows.get(1)?.reads).toBe(1)
    }))

  it.effect("a failed read is tried again later with its error kept; the follow-up stays open", () =>
    Effect.gen(function*() {
      let failing = true
      const { store, service, settled } = yield* setup((_, now) => failing ? "503" : { key: "mo-1", videoClips: now > 0 ? clips(2) : [] })
      store.accept(1, t0)
      yield* advanceUntil(() => service.reads.length === 2, "two failed reads", 120_000, 100)
      expect(readTimes(service.reads, t0)).toEqual([10_000, 30_000])
      expect(store.rows.get(1)).toMatchObject({ outcome: null, reads: 2 })
      expect(store.rows.get(1)?.lastError).toContain("503")
      failing = false
      yield* advanceUntil(() => settled.length === 1, "the outcome", 120_000, 100)
      expect(settled[0]?.outcome).toBe("clip-ready")
    }))

  it.effect("an outcome settled meanwhile (an undo deleted the moment) is not told twice", () =>
    Effect.gen(function*() {
      const { store, service, settled } = yield* setup(() => ({ key: "mo-1", videoClips: clips(2) }))
      store.accept(1, t0)
      store.rows.set(1, { ...store.rows.get(1)!, outcome: "deleted" })
      yield* TestClock.adjust(60_000)
      yield* Effect.yieldNow
      expect(service.reads).toEqual([])
      expect(settled).toEqual([])
    }))
})

describe("clip follower: the token's budget", () => {
  it.effect("reads only take slots nobody else wants: a score backlog is served at the full rate and the reads wait", () =>
    Effect.gen(function*() {
      const { budget, store, service, settled } = yield* setup(() => ({ key: "mo-1", videoClips: clips(2) }))
      store.accept(1, t0 - 5_000)
      // A place's score lane with a long backlog: one request at a time, each asking again at once.
      const scores: Array<number> = []
      const backlog = 40
      yield* Effect.forkScoped(Effect.gen(function*() {
        for (let i = 0; i < backlog; i++) {
          yield* budget.acquire("score")
          scores.push(yield* Clock.currentTimeMillis)
          yield* budget.finished
        }
      }))
      yield* advanceUntil(() => scores.length === backlog && settled.length === 1, "the backlog and the read", 120_000, 10)
      // The read came after the whole backlog, which kept its pace of one slot per 1010 ms.
      expect(service.reads[0]!.at).toBeGreaterThan(scores.at(-1)!)
      const gaps = scores.slice(1).map((at, i) => at - scores[i]!)
      expect(Math.max(...gaps)).toBeLessThanOrEqual(1010 + 10)
    }))

  it.effect("many follow-ups due at once are read two slots apart, leaving every other slot to presses", () =>
    Effect.gen(function*() {
      const { budget, store, service, settled } = yield* setup(() => ({ key: "mo", videoClips: clips(1) }))
      for (let id = 1; id <= 10; id++) store.accept(id, t0)
      yield* advanceUntil(() => service.reads.length >= 2, "the first reads", 30_000, 10)
      // A press between two reads finds the slot after a read free: it waits for no read (reads
      // in every slot would hold it until the next one, about 0.5 s).
      yield* TestClock.setTime(service.reads[1]!.at + 1_500)
      const pressedAt = yield* Clock.currentTimeMillis
      let grantedAt = 0
      yield* Effect.forkScoped(Effect.andThen(budget.acquire("click", pressedAt), Effect.map(Clock.currentTimeMillis, (at) => (grantedAt = at))))
      yield* advanceUntil(() => settled.length === 10 && grantedAt > 0, "every outcome and the press", 60_000, 10)
      const gaps = service.reads.slice(1).map((r, i) => r.at - service.reads[i]!.at)
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(settings.readGapMs)
      expect(grantedAt - pressedAt).toBeLessThanOrEqual(10)
    }))

  it.effect("while scores and presses keep the token busy (60 % of its minute or more) reads wait for a quieter minute", () =>
    Effect.gen(function*() {
      const { budget, store, service, settled } = yield* setup(() => ({ key: "mo-1", videoClips: clips(2) }))
      // Accepted a minute into the match: the token's last minute is busy by the time of its first read.
      store.accept(1, t0 + 60_000)
      // A match that keeps the token busy for nearly three minutes, with a free slot now and then.
      let busyUntil = 0
      yield* Effect.forkScoped(Effect.gen(function*() {
        for (let i = 0; i < 150; i++) {
          yield* budget.acquire("score")
          yield* budget.finished
          if (i % 4 === 3) yield* Effect.sleep(1_500)
        }
        busyUntil = yield* Clock.currentTimeMillis
      }))
      yield* advanceUntil(() => settled.length === 1, "the outcome", 400_000, 100)
      expect(busyUntil).toBeGreaterThan(t0 + 150_000)
      // Not one read while the match kept the token busy; the first came once its minute was quiet.
      expect(service.reads.map((r) => r.at).filter((at) => at <= busyUntil)).toEqual([])
      expect(service.reads).toHaveLength(1)
    }))

  it.effect("while the token is suspended reads wait, and the outcome they find afterwards is the true one", () =>
    Effect.gen(function*() {
      const { budget, store, service, settled } = yield* setup(() => ({ key: "mo-1", videoClips: clips(2) }))
      store.accept(1, t0)
      yield* budget.suspend("test: the token is suspended")
      yield* TestClock.adjust(settings.noClipAfterMs * 2)
      yield* Effect.yieldNow
      expect(service.reads).toEqual([])
      yield* budget.resume
      yield* advanceUntil(() => settled.length === 1, "the outcome", 10_000, 100)
      expect(settled[0]?.outcome).toBe("clip-ready")
    }))

  it.effect("a moment that cannot be read for long after its deadline is given up as unchecked, saying why", () =>
    Effect.gen(function*() {
      const { store, service, settled } = yield* setup(() => "503")
      store.accept(1, t0)
      const limit = settings.noClipAfterMs + settings.giveUpAfterMs + 120_000
      yield* advanceUntil(() => settled.length === 1, "the outcome", limit, 1_000)
      expect(settled[0]?.outcome).toBe("unchecked")
      expect(settled[0]?.detail.reason).toContain("503")
      expect(yield* Clock.currentTimeMillis).toBeGreaterThan(t0 + settings.noClipAfterMs + settings.giveUpAfterMs)
      // Failed reads back off to one a minute: about 35 in 33 minutes, not one a second.
      expect(service.reads.length).toBeLessThan(40)
    }))
})
