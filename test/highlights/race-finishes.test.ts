import { describe, expect, it } from "vitest"
import type { Finish, LaneBoard, RaceBoard } from "../../src/domain/race.ts"
import type { Reading } from "../../src/domain/reading.ts"
import { type MadeFinish, RaceFinishes } from "../../src/highlights/race-finishes.ts"
import { resultHoldMs } from "../../src/highlights/race-lanes.ts"

/**
 * Synthetic boards as a decoder of a timing console emits them: one reading per running-clock
 * packet (about ten a second, at a random point within each tenth, the clock shown truncated to
 * the tenth, arriving 10–60 ms later), and one more whenever a lane changed in between (the whole
 * board, with the clock of the last clock packet).
 */

const epoch = 1_700_000_000_000

interface LanePlan {
  readonly lane: number
  /** The touch, ms after the horn (a multiple of 10: hundredths); its stopped packet is confirmed 0.4 s later. */
  readonly finishMs?: number
  readonly place?: number
  /** The previous race's result, shown until the lane switches to running just after the horn. */
  readonly previous?: { readonly place: number; readonly timeMs: number }
  /** Switched off on the console: drops from running to blank 1.5 s after the horn. */
  readonly off?: boolean
  /** Not switched to running at the start: keeps showing the previous result. */
  readonly idle?: boolean
  /** Not listed on the board before this (its module not yet confirmed by the decoder). */
  readonly listedFromMs?: number
  /** Switched back on ("lanes on"): the previous result comes back without a start. */
  readonly backOnMs?: number
  readonly dropOut?: { readonly fromMs: number; readonly toMs: number }
  /** Splits shown (stopped, no place) for 3 s each from 0.4 s after. */
  readonly splitMs?: ReadonlyArray<number>
}

interface RacePlan {
  readonly event: number
  readonly heat: number
  readonly lanes: ReadonlyArray<LanePlan>
  /** Stream time before the horn (clock reset, previous results shown). */
  readonly preMs: number
  /** The operator resets the clock this long after the last touch. */
  readonly runOnMs: number
  /** Stream time after the reset. */
  readonly afterMs: number
  /** Shown from the reset on (the operator advancing to the next race). */
  readonly next?: { readonly event: number; readonly heat: number }
  /** The operator advances event/heat during the race. */
  readonly advance?: { readonly atMs: number; readonly event: number; readonly heat: number }
  /** The console's blank mode, ms after the horn; `showing`: the decoder still lists the lanes as they were. */
  readonly blank?: { readonly fromMs: number; readonly toMs: number; readonly showing?: boolean }
  /** Clock packets misread: the clock shown this far ahead in the packet nearest `atMs`. */
  readonly outliers?: ReadonlyArray<{ readonly atMs: number; readonly aheadMs: number }>
  /** One clock packet misread as the reset "0.0". */
  readonly glitchResetMs?: number
}

interface Touch {
  readonly lane: number
  readonly place: number
  readonly timeMs: number
  readonly time: string
  /** Epoch ms of the touch. */
  readonly touchAt: number
  readonly event: number
  readonly heat: number
}

interface Stream {
  readonly readings: ReadonlyArray<Reading>
  readonly races: ReadonlyArray<{ readonly hornAt: number; readonly resetAt: number; readonly touches: ReadonlyArray<Touch> }>
}

/** A small seeded generator (mulberry32): the same stream for the same seed. */
const random = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const timeText = (timeMs: number): string => {
  const hundredths = Math.round(timeMs / 10)
  const minutes = Math.floor(hundredths / 6000)
  const rest = hundredths - minutes * 6000
  const seconds = Math.floor(rest / 100).toString()
  const frac = (rest % 100).toString().padStart(2, "0")
  return minutes > 0 ? `${minutes}:${seconds.padStart(2, "0")}.${frac}` : `${seconds}.${frac}`
}

const stopped = (lane: number, timeMs: number, place?: number): LaneBoard =>
  ({ lane, state: "stopped", time: timeText(timeMs), timeMs, ...(place === undefined ? {} : { place }) })

const lastTouchMs = (plan: RacePlan): number => Math.max(0, ...plan.lanes.map((l) => l.finishMs ?? 0))
const resetMsOf = (plan: RacePlan): number => lastTouchMs(plan) + plan.runOnMs

/** A lane's module `t` ms after the horn. */
const laneAt = (plan: RacePlan, lane: LanePlan, t: number): LaneBoard => {
  const blank: LaneBoard = { lane: lane.lane, state: "blank" }
  const previous = lane.previous === undefined ? blank : stopped(lane.lane, lane.previous.timeMs, lane.previous.place)
  if (t < 300 + 40 * lane.lane || lane.idle === true) return previous
  if (lane.finishMs !== undefined && t >= lane.finishMs + 400) return stopped(lane.lane, lane.finishMs, lane.place)
  if (t >= resetMsOf(plan)) return blank
  if (lane.off === true && t >= 1500) return lane.backOnMs !== undefined && t >= lane.backOnMs ? previous : blank
  if (lane.dropOut !== undefined && t >= lane.dropOut.fromMs && t < lane.dropOut.toMs) return blank
  const split = lane.splitMs?.find((s) => t >= s + 400 && t < s + 3400)
  if (split !== undefined) return stopped(lane.lane, split)
  return { lane: lane.lane, state: "running" }
}

/** The board `t` ms after the horn, its clock as a packet sent at `clockT` shows it. */
const boardAt = (plan: RacePlan, t: number, clockT: number, aheadMs: number): RaceBoard => {
  const resetMs = resetMsOf(plan)
  const reset = clockT < 0 || clockT >= resetMs
  const clock = reset ? { clockMs: 0, clockReset: true } : { clockMs: Math.floor(clockT / 100) * 100 + aheadMs, clockReset: false }
  if (plan.blank !== undefined && t >= plan.blank.fromMs && t < plan.blank.toMs) {
    const lanes = plan.blank.showing === true ? plan.lanes.map((l) => laneAt(plan, l, t)) : plan.lanes.map((l) => ({ lane: l.lane, state: "blank" as const }))
    return { ...clock, blanked: true, lanes }
  }
  const advanced = plan.advance !== undefined && t >= plan.advance.atMs ? plan.advance : plan
  const numbers = t >= resetMs && plan.next !== undefined ? plan.next : advanced
  const listed = plan.lanes.filter((l) => l.listedFromMs === undefined || t >= l.listedFromMs)
  return { ...clock, event: numbers.event, heat: numbers.heat, lanes: listed.map((l) => laneAt(plan, l, t)) }
}

const touchesOf = (plan: RacePlan, hornAt: number): ReadonlyArray<Touch> =>
  plan.lanes.flatMap((l) => l.finishMs === undefined || l.place === undefined ? [] : [{
    lane: l.lane, place: l.place, timeMs: l.finishMs, time: timeText(l.finishMs), touchAt: hornAt + l.finishMs, event: plan.event, heat: plan.heat
  }])

/** Several races back to back in one stream of readings. */
const swim = (plans: ReadonlyArray<RacePlan>, seed = 7): Stream => {
  const draw = random(seed)
  const readings: Array<Reading> = []
  const races: Array<Stream["races"][number]> = []
  let segmentStart = 0
  let lastArrival = 0
  const emit = (sentAt: number, race: RaceBoard) => {
    lastArrival = Math.max(lastArrival, epoch + sentAt + 10 + 50 * draw())
    readings.push({ receivedAt: lastArrival, race })
  }
  for (const plan of plans) {
    // The horn falls at an odd ms, so the tenths the clock counts are not the stream's.
    const horn = segmentStart + plan.preMs + 37
    const end = horn + resetMsOf(plan) + plan.afterMs
    const outliers = [...plan.outliers ?? []]
    let glitchMs = plan.glitchResetMs
    for (let tenth = Math.ceil(segmentStart / 100); tenth * 100 < end; tenth++) {
      const sentAt = tenth * 100 + 100 * draw()
      const t = sentAt - horn
      // Each misread is the first clock packet at or after its time.
      const outlier = outliers.findIndex((o) => t >= o.atMs)
      const aheadMs = outlier < 0 ? 0 : outliers.splice(outlier, 1)[0]!.aheadMs
      const glitch = glitchMs !== undefined && t >= glitchMs
      if (glitch) glitchMs = undefined
      const board = boardAt(plan, t, t, aheadMs)
      emit(sentAt, glitch ? { ...board, clockMs: 0, clockReset: true } : board)
      // A lane's change read in the same chunk as the misread: the same clock, the same arrival.
      if (aheadMs !== 0) readings.push(readings.at(-1)!)
      const later = boardAt(plan, t + 50, t, aheadMs)
      if (JSON.stringify(later.lanes) !== JSON.stringify(board.lanes) || later.event !== board.event) emit(sentAt + 50, later)
    }
    races.push({ hornAt: epoch + horn, resetAt: epoch + horn + resetMsOf(plan), touches: touchesOf(plan, epoch + horn) })
    segmentStart = end
  }
  return { readings, races }
}

/** Feeds readings; each finish with the reading that settled it. */
const run = (tracker: RaceFinishes, readings: ReadonlyArray<Reading>) =>
  readings.flatMap((reading) => tracker.onReading(reading).map((finish) => ({ finish, readAt: reading.receivedAt })))

const eightLanes = (previous = false): ReadonlyArray<LanePlan> => {
  const touches = [29_870, 28_910, 28_460, 30_150, 31_020, 29_330, 33_400, 30_990]
  const places = touches.map((t) => touches.filter((o) => o < t).length + 1)
  return touches.map((finishMs, i) => ({
    lane: i + 1, finishMs, place: places[i]!, ...(previous ? { previous: { place: 9 - places[i]!, timeMs: finishMs + 1_230 } } : {})
  }))
}

const race = (overrides: Partial<RacePlan> = {}): RacePlan =>
  ({ event: 12, heat: 3, lanes: eightLanes(), preMs: 5_000, runOnMs: 8_000, afterMs: 5_000, ...overrides })

const facts = (f: Finish) => ({ lane: f.lane, place: f.place, time: f.time, timeMs: f.timeMs, event: f.event, heat: f.heat })
const truth = (t: Touch) => ({ lane: t.lane, place: t.place, time: t.time, timeMs: t.timeMs, event: t.event, heat: t.heat })
const byLane = <T extends { readonly lane: number }>(list: ReadonlyArray<T>): Array<T> => [...list].sort((a, b) => a.lane - b.lane)

/** Each finish stamped within `ms` of its swimmer's touch. */
const expectStamped = (finishes: ReadonlyArray<Finish>, touches: ReadonlyArray<Touch>, ms: number) => {
  for (const finish of finishes) {
    const touch = touches.find((t) => t.lane === finish.lane)!
    expect(Math.abs(finish.at - touch.touchAt), `lane ${finish.lane}: at − touch`).toBeLessThanOrEqual(ms)
  }
}

/** The readings up to (epoch) time `at`. */
const until = (stream: Stream, at: number) => stream.readings.filter((r) => r.receivedAt <= at)
const from = (stream: Stream, at: number) => stream.readings.filter((r) => r.receivedAt > at)

describe("a clean race of 8 lanes", () => {
  const stream = swim([race({ lanes: eightLanes(true) })])
  const [{ hornAt, touches }] = stream.races as [Stream["races"][number]]

  it("makes one finish per lane with its lane, place, time and the race's event/heat, stamped at the touch", () => {
    const made = run(new RaceFinishes(), stream.readings)
    expect(byLane(made.map((m) => facts(m.finish)))).toEqual(byLane(touches.map(truth)))
    expectStamped(made.map((m) => m.finish), touches, 20)
    // Reported once the board has shown it unchanged for the hold (confirmed 0.4 s after the touch), not at the end of the race.
    for (const { finish, readAt } of made) expect(readAt - (hornAt + finish.timeMs)).toBeLessThan(600 + resultHoldMs)
  })

  it("estimates the start within 20 ms of the horn from the running clock", () => {
    const tracker = new RaceFinishes()
    run(tracker, until(stream, hornAt + 30_000 + resultHoldMs))
    const state = tracker.state
    expect(state.phase).toBe("running")
    expect(Math.abs(state.startedAt! - hornAt)).toBeLessThanOrEqual(20)
    expect(state.finishes.map((f) => f.place)).toEqual([1, 2, 3])
    expect(state).toMatchObject({ event: 12, heat: 3 })
  })

  it("is deterministic: the same readings make the same finishes", () => {
    expect(run(new RaceFinishes(), stream.readings)).toEqual(run(new RaceFinishes(), stream.readings))
  })
})

describe("the start estimate", () => {
  const startAfter = (plan: RacePlan, ms: number) => {
    const stream = swim([plan], 11)
    const tracker = new RaceFinishes()
    run(tracker, until(stream, stream.races[0]!.hornAt + ms))
    return { startedAt: tracker.state.startedAt!, hornAt: stream.races[0]!.hornAt }
  }

  it("does not move for one clock packet misread a few tenths ahead, nor for one misread seconds ahead", () => {
    const clean = startAfter(race(), 20_000)
    expect(Math.abs(clean.startedAt - clean.hornAt)).toBeLessThanOrEqual(20)
    for (const aheadMs of [300, 1_000, 7_000]) {
      const misread = startAfter(race({ outliers: [{ atMs: 4_000, aheadMs }] }), 20_000)
      expect(misread.startedAt, `a packet ${aheadMs} ms ahead`).toBe(clean.startedAt)
    }
  })

  it("does not take a misread in the first two packets after the horn", () => {
    const clean = startAfter(race(), 20_000)
    expect(startAfter(race({ outliers: [{ atMs: 100, aheadMs: 300 }] }), 20_000).startedAt).toBe(clean.startedAt)
  })
})

describe("what is not a finish", () => {
  it("the previous race's results, shown until the lanes switch to running, are never finishes", () => {
    const lanes = eightLanes(true).map((l, i) => (i < 4 ? l : { lane: l.lane, previous: l.previous! }))
    const stream = swim([race({ lanes })])
    const made = run(new RaceFinishes(), stream.readings).map((m) => m.finish)
    expect(byLane(made.map(facts))).toEqual(byLane(stream.races[0]!.touches.map(truth)))
    expect(made.map((f) => f.lane).sort()).toEqual([1, 2, 3, 4])
  })

  it("a lane never switched to running shows the previous race's result all race: never a finish, even first listed mid-race", () => {
    const idle = { previous: { place: 3, timeMs: 25_550 }, idle: true }
    const lanes = eightLanes(true).map((l) => (l.lane === 5 ? { lane: 5, ...idle } : l.lane === 8 ? { lane: 8, ...idle, listedFromMs: 35_000 } : l))
    const stream = swim([race({ lanes })])
    expect(stream.readings.find((r) => r.race!.lanes.length === 8)!.race!.clockMs).toBeGreaterThanOrEqual(34_900)
    const made = run(new RaceFinishes(), stream.readings).map((m) => m.finish)
    expect(made.map((f) => f.lane).sort()).toEqual([1, 2, 3, 4, 6, 7])
  })

  it("a split (stopped with a time, no place) is not a finish; the touch after it is, once", () => {
    const lanes = eightLanes().map((l) => (l.lane === 4 ? { ...l, splitMs: [14_320] } : l))
    const stream = swim([race({ lanes })])
    const made = run(new RaceFinishes(), stream.readings).map((m) => m.finish)
    expect(made.filter((f) => f.lane === 4).map(facts)).toEqual([truth(stream.races[0]!.touches.find((t) => t.lane === 4)!)])
    expect(made).toHaveLength(8)
  })

  it("a lane dropping out to blank and coming back running makes nothing; its touch later is one finish", () => {
    const lanes = eightLanes().map((l) => (l.lane === 2 ? { ...l, dropOut: { fromMs: 9_000, toMs: 13_000 } } : l))
    const stream = swim([race({ lanes })])
    const made = run(new RaceFinishes(), stream.readings).map((m) => m.finish)
    expect(made.filter((f) => f.lane === 2).map(facts)).toEqual([truth(stream.races[0]!.touches.find((t) => t.lane === 2)!)])
    expectStamped(made, stream.races[0]!.touches, 20)
  })

  it("a lane switched off makes nothing, even when switched back on showing the previous race's result", () => {
    // Lane 8 is back on at 35 s: its previous 32.22 is within the clock.
    const lanes = eightLanes(true).map((l) => (l.lane >= 7 ? { lane: l.lane, previous: l.previous!, off: true, ...(l.lane === 8 ? { backOnMs: 35_000 } : {}) } : l))
    const stream = swim([race({ lanes })])
    // The previous result is really shown again mid-race, after the lane ran at the start.
    const shownAgain = stream.readings.filter((r) => r.race!.clockMs! > 35_500 && r.race!.lanes[7]!.state === "stopped")
    expect(shownAgain.length).toBeGreaterThan(10)
    const made = run(new RaceFinishes(), stream.readings).map((m) => m.finish)
    expect(made.map((f) => f.lane).sort()).toEqual([1, 2, 3, 4, 5, 6])
  })

  it("a result ahead of the clock is not this race's, not even once the clock has passed it", () => {
    // Joined 1 s after the horn (the previous results not seen): lane 8, switched off and on again
    // at 20 s, shows its previous 32.22, taken for a finish neither then nor when the clock reaches it.
    const lanes = eightLanes(true).map((l) => (l.lane === 8 ? { lane: 8, previous: l.previous!, off: true, backOnMs: 20_000 } : l))
    const stream = swim([race({ lanes })])
    const made = run(new RaceFinishes(), from(stream, stream.races[0]!.hornAt + 1_000)).map((m) => m.finish)
    expect(made.map((f) => f.lane).sort()).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it.each([false, true])("a blanked board makes nothing; unblanked, it makes the touches it hid, never again the ones made before (lanes listed: %s)", (showing) => {
    const stream = swim([race({ blank: { fromMs: 29_500, toMs: 31_000, showing } })])
    const { touches } = stream.races[0]!
    const made = run(new RaceFinishes(), stream.readings)
    expect(byLane(made.map((m) => facts(m.finish)))).toEqual(byLane(touches.map(truth)))
    expectStamped(made.map((m) => m.finish), touches, 20)
    const blanked = stream.readings.filter((r) => r.race!.blanked === true)
    expect(blanked.length).toBeGreaterThan(10)
    // Nothing is made while the board is blank; the lanes it hid come with the unblanking.
    const hidden = made.filter((m) => m.readAt > blanked[0]!.receivedAt && m.readAt <= blanked.at(-1)!.receivedAt)
    expect(hidden).toEqual([])
    const atUnblank = made.filter((m) => m.readAt > blanked.at(-1)!.receivedAt && m.readAt < blanked.at(-1)!.receivedAt + resultHoldMs + 200)
    // Those confirmed (0.4 s after the touch) too late to be held out before the blank, or during it: lanes 1, 2, 3, 4 and 6.
    const hiddenLanes = touches.filter((t) => t.timeMs + 400 + resultHoldMs > 29_500 && t.timeMs + 400 < 31_000).map((t) => t.lane)
    expect(hiddenLanes.sort()).toEqual([1, 2, 3, 4, 6])
    expect(atUnblank.map((m) => m.finish.lane).sort()).toEqual(hiddenLanes)
  })
})

describe("the race's event and heat", () => {
  it("are the board's at the start: the operator advancing them mid-race changes neither the finishes nor the state", () => {
    const stream = swim([race({ advance: { atMs: 29_200, event: 13, heat: 1 }, next: { event: 13, heat: 1 } })])
    const { hornAt, resetAt } = stream.races[0]!
    const tracker = new RaceFinishes()
    const made = run(tracker, until(stream, hornAt + 31_000)).map((m) => m.finish)
    expect(stream.readings.some((r) => r.race!.event === 13 && r.receivedAt < hornAt + 31_000)).toBe(true)
    expect(tracker.state).toMatchObject({ phase: "running", event: 12, heat: 3 })
    made.push(...run(tracker, from(stream, hornAt + 31_000)).map((m) => m.finish))
    expect(made).toHaveLength(8)
    expect(made.every((f) => f.event === 12 && f.heat === 3)).toBe(true)
    // Waiting for the next race, the state shows what the board shows now.
    expect(resetAt).toBeLessThan(stream.readings.at(-1)!.receivedAt)
    expect(tracker.state).toMatchObject({ phase: "waiting", event: 13, heat: 1 })
  })

  it("are taken within 5 s of the start when the board showed none at it", () => {
    const stream = swim([race()])
    const { hornAt } = stream.races[0]!
    const hidden = (from: number, to: number) => stream.readings.map((r) => {
      if (r.receivedAt < hornAt + from || r.receivedAt >= hornAt + to) return r
      const { event: _e, heat: _h, ...board } = r.race!
      return { ...r, race: board }
    })
    expect(run(new RaceFinishes(), hidden(-1_000, 2_000)).map((m) => m.finish.event)).toEqual(Array(8).fill(12))
    expect(run(new RaceFinishes(), hidden(-1_000, 6_000)).map((m) => m.finish.event)).toEqual(Array(8).fill(undefined))
  })
})

describe("one race after another", () => {
  // The first race's results of lanes 1–3 are still shown when the second starts.
  const shown = (lane: number) => {
    const l = eightLanes()[lane - 1]!
    return { place: l.place!, timeMs: l.finishMs! }
  }
  const second: RacePlan = {
    event: 13, heat: 1, preMs: 20_000, runOnMs: 6_000, afterMs: 3_000,
    lanes: [
      { lane: 1, finishMs: 61_230, place: 2, previous: shown(1) },
      { lane: 2, finishMs: 60_170, place: 1, previous: shown(2) },
      { lane: 3, previous: shown(3) }
    ]
  }
  const stream = swim([race({ next: { event: 13, heat: 1 } }), second])
  const [first, next] = stream.races as [Stream["races"][number], Stream["races"][number]]

  it("the reset ends the race: while waiting, the state keeps its finishes; the next start clears them", () => {
    const tracker = new RaceFinishes()
    run(tracker, until(stream, first.resetAt + 2_000))
    const waiting = tracker.state
    expect(waiting.phase).toBe("waiting")
    expect(waiting.startedAt).toBeUndefined()
    expect(waiting.finishes.map((f) => [f.place, f.lane])).toEqual(first.touches.map((t) => [t.place, t.lane]).sort((a, b) => a[0]! - b[0]!))
    run(tracker, stream.readings.filter((r) => r.receivedAt > first.resetAt + 2_000 && r.receivedAt <= next.hornAt + 5_000))
    expect(tracker.state).toMatchObject({ phase: "running", event: 13, heat: 1, finishes: [] })
    expect(Math.abs(tracker.state.startedAt! - next.hornAt)).toBeLessThan(150)
  })

  it("the second race makes its own finishes (not the first's results still shown at its start), stamped from its own start", () => {
    const made = run(new RaceFinishes(), stream.readings).map((m) => m.finish)
    expect(byLane(made.filter((f) => f.event === 13).map(facts))).toEqual(byLane(next.touches.map(truth)))
    expect(made).toHaveLength(first.touches.length + next.touches.length)
    expectStamped(made.filter((f) => f.event === 13), next.touches, 20)
  })

  it.each([15_000, 29_000])("one clock packet misread as the reset (at %i ms) does not end the race: nothing is made twice and the event stays", (glitchResetMs) => {
    const glitched = swim([race({ glitchResetMs, advance: { atMs: 10_000, event: 14, heat: 2 } })])
    const made = run(new RaceFinishes(), glitched.readings).map((m) => m.finish)
    expect(made.map(facts).sort((a, b) => a.lane - b.lane)).toEqual(byLane(glitched.races[0]!.touches.map(truth)))
  })
})

describe("the clock", () => {
  it("read late (a stalled read delivering 3 s of readings at once) is still the race's clock: the race goes on", () => {
    const stream = swim([race({ advance: { atMs: 6_000, event: 13, heat: 1 } })])
    const { hornAt, touches } = stream.races[0]!
    const stallEnd = hornAt + 13_000
    const stalled = stream.readings.map((r, i) => (r.receivedAt > hornAt + 10_000 && r.receivedAt <= stallEnd ? { ...r, receivedAt: stallEnd + i / 1000 } : r))
    const tracker = new RaceFinishes()
    const made = run(tracker, stalled).map((m) => m.finish)
    expect(byLane(made.map(facts))).toEqual(byLane(touches.map(truth)))
    expectStamped(made, touches, 20)
  })

  it("gone back to the start without a reset seen (the line down across the reset) starts the next race", () => {
    const next: RacePlan = { ...race({ event: 13, heat: 1 }), lanes: eightLanes().slice(0, 4).map((l) => ({ ...l, finishMs: l.finishMs! + 2_000 })) }
    const stream = swim([race(), next])
    const [first, second] = stream.races as [Stream["races"][number], Stream["races"][number]]
    const tracker = new RaceFinishes()
    const made = run(tracker, stream.readings.filter((r) => r.receivedAt < first.resetAt - 1_000 || r.receivedAt > second.hornAt + 4_000)).map((m) => m.finish)
    expect(byLane(made.filter((f) => f.event === 13).map(facts))).toEqual(byLane(second.touches.map(truth)))
    expectStamped(made.filter((f) => f.event === 13), second.touches, 50)
    expect(made).toHaveLength(12)
  })
})

describe("a bridge started mid-race", () => {
  const stream = swim([race()])
  const { hornAt, touches } = stream.races[0]!

  it("joins the race: lanes already showing a result within the clock are its finishes, stamped from the clock", () => {
    const tracker = new RaceFinishes()
    const made = run(tracker, from(stream, hornAt + 30_500)).map((m) => m.finish)
    expect(byLane(made.map(facts))).toEqual(byLane(touches.map(truth)))
    // Two seconds of the clock pass before the first is stamped: enough readings to place the start.
    expectStamped(made, touches, 50)
    expect(tracker.state.event).toBe(12)
  })

  it("after a restart, the finishes made before it (from the outbox) are not made again; the rest are, with the race's event/heat", () => {
    // The operator advances the board to the next race while the bridge is down.
    const stream = swim([race({ advance: { atMs: 30_200 + resultHoldMs, event: 13, heat: 1 } })])
    const { hornAt, touches } = stream.races[0]!
    const before = new RaceFinishes()
    const early = run(before, until(stream, hornAt + 30_000 + resultHoldMs)).map((m) => m.finish)
    expect(early.map((f) => f.lane)).toEqual([3, 2, 6])
    const made: ReadonlyArray<MadeFinish> = early.map(({ lane, place, time, event, heat, at }) => ({ lane, place, time, event, heat, at }))
    const after = new RaceFinishes({ made })
    const late = run(after, from(stream, hornAt + 30_600 + resultHoldMs)).map((m) => m.finish)
    expect(byLane([...early, ...late].map(facts))).toEqual(byLane(touches.map(truth)))
    // The status still lists the race's finishes made before the restart.
    expect(after.state.finishes).toHaveLength(8)
  })

  it("`made` suppresses the same lane and time stamped within 5 s, and not one 60 s away", () => {
    const lane1 = touches.find((t) => t.lane === 1)!
    const lane2 = touches.find((t) => t.lane === 2)!
    const made: ReadonlyArray<MadeFinish> = [
      { lane: 1, place: lane1.place, time: lane1.time, event: 12, heat: 3, at: lane1.touchAt + 4_000 },
      { lane: 2, place: lane2.place, time: lane2.time, event: 12, heat: 3, at: lane2.touchAt + 60_000 }
    ]
    const finishes = run(new RaceFinishes({ made }), stream.readings).map((m) => m.finish.lane)
    expect(finishes.sort()).toEqual([2, 3, 4, 5, 6, 7, 8])
  })
})

describe("readings that do not carry a race", () => {
  it("make nothing and leave the tracker waiting", () => {
    const tracker = new RaceFinishes()
    expect(tracker.onReading({ receivedAt: epoch, home: 3, away: 1, clock: "12:00" })).toEqual([])
    expect(tracker.state).toEqual({ phase: "waiting", finishes: [] })
  })
})

describe("a result held until the board has shown it unchanged", () => {
  /** One lane, clock readings every 100 ms from 2 s before the horn; `laneAt(ms)` is the lane after the horn. */
  const simple = (toMs: number, laneAt: (ms: number) => LaneBoard, resetAtMs = Number.POSITIVE_INFINITY): ReadonlyArray<Reading> => {
    const out: Array<Reading> = []
    for (let ms = -2_000; ms <= toMs; ms += 100) {
      const reset = ms < 0 || ms >= resetAtMs
      out.push({
        receivedAt: epoch + ms + 30,
        race: { clockMs: reset ? 0 : ms, clockReset: reset, event: 4, heat: 1, lanes: [ms < 0 ? { lane: 1, state: "blank" } : laneAt(ms)] }
      })
    }
    return out
  }

  it("a provisional time the console repeats (so the decoder confirms it) and replaces half a second later makes one finish, the settled one", () => {
    const lane = (ms: number): LaneBoard =>
      ms < 10_000 ? { lane: 1, state: "running" } : ms < 10_500 ? stopped(1, 9_570, 1) : stopped(1, 9_600, 1)
    const made = run(new RaceFinishes(), simple(15_000, lane)).map((m) => m.finish)
    expect(made.map((f) => [f.lane, f.place, f.time])).toEqual([[1, 1, "9.60"]])
  })

  it("a result still held when the operator resets the clock is taken at the reset: it was the board's until then", () => {
    const lane = (ms: number): LaneBoard => (ms < 10_000 ? { lane: 1, state: "running" } : stopped(1, 9_600, 1))
    const made = run(new RaceFinishes(), simple(12_000, lane, 10_300))
    expect(made.map((m) => [m.finish.time, m.readAt - epoch])).toEqual([["9.60", 10_300 + 30]])
  })
})
