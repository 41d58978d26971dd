import { describe, expect, it } from "vitest"
import { meetStream, type ModelOptions, type ModelStream, raceStream, type RaceScript, receivedChunks } from "./console-model.ts"

/**
 * The console model checked against the protocol note's facts (../shared/protocols/colorado-cts.md
 * §2, §4, §5) on its own bytes, read by the small reader below — written from the note, apart from
 * the adapter's decoder, so the model cannot inherit the decoder's mistakes nor the other way round.
 */

// ---- a tiny reader: bytes → packets (interrupted ones merged), each stamped with its address byte's time

type Digit = number | null
interface Packet {
  readonly channel: number
  readonly format: boolean
  readonly running: boolean
  readonly address: number
  /** Byte index and time (ms, when the address byte had left the console) of the address. */
  readonly index: number
  readonly atMs: number
  readonly positions: Array<number>
  readonly digits: Array<Digit>
  /** A channel-0 packet that arrived inside this packet (this one resumed after it). */
  interrupted: boolean
  /** A channel-0 packet that arrived inside another packet. */
  inside: boolean
}

const read = (stream: ModelStream, baudRate = 9600): Array<Packet> => {
  const msPerByte = 11_000 / baudRate
  const packets: Array<Packet> = []
  let current: Packet | undefined
  let suspended: Packet | undefined
  let index = 0
  for (const chunk of stream.chunks) {
    chunk.bytes.forEach((b, j) => {
      const atMs = chunk.atMs - (chunk.bytes.length - 1 - j) * msPerByte
      if (b < 0x80) {
        if (current !== undefined) {
          current.positions.push((b >> 4) & 7)
          current.digits[(b >> 4) & 7] = (b & 0xf) === 0 ? null : (b & 0xf) ^ 0xf
        }
      } else if (suspended !== undefined && current?.channel === 0 && b === suspended.address) {
        suspended.interrupted = true
        current = suspended
        suspended = undefined
      } else {
        const channel = ((b >> 1) & 0x1f) ^ 0x1f
        suspended = channel === 0 && current !== undefined && current.channel !== 0 ? current : undefined
        current = {
          channel, format: (b & 1) === 1, running: (b & 0x40) !== 0, address: b, index, atMs,
          positions: [], digits: Array.from({ length: 8 }, () => null), interrupted: false, inside: suspended !== undefined
        }
        packets.push(current)
      }
      index++
    })
  }
  return packets
}

const digitPackets = (packets: ReadonlyArray<Packet>, channel: number) => packets.filter((p) => p.channel === channel && !p.format)
const formatPackets = (packets: ReadonlyArray<Packet>, channel: number) => packets.filter((p) => p.channel === channel && p.format)
const text = (digits: ReadonlyArray<Digit>) => digits.map((d) => (d === null ? " " : d.toString(16))).join("")
const between = (packets: ReadonlyArray<Packet>, fromMs: number, toMs: number) => packets.filter((p) => p.atMs >= fromMs && p.atMs < toMs)

/** A lane module's time in ms (d2–3 minutes, d4–5 seconds, d6–7 hundredths). */
const laneTime = (d: ReadonlyArray<Digit>) => {
  const n = (i: number) => d[i] ?? 0
  return ((n(2) * 10 + n(3)) * 60 + n(4) * 10 + n(5)) * 1000 + (n(6) * 10 + n(7)) * 10
}
/** The running clock in ms (d2–3 minutes, d4–5 seconds, d6 tenths), or "reset" for `0.0`. */
const clockOf = (d: ReadonlyArray<Digit>) => {
  if (text(d.slice(2, 7)) === "   00") return "reset"
  const n = (i: number) => d[i] ?? 0
  return ((n(2) * 10 + n(3)) * 60 + n(4) * 10 + n(5)) * 1000 + n(6) * 100
}
/** Channel 0 as a listener keeps it: each packet's positions laid over the last. */
const clockReadings = (packets: ReadonlyArray<Packet>) => {
  const shown: Array<Digit> = Array.from({ length: 8 }, () => null)
  return digitPackets(packets, 0).map((p) => {
    for (const at of p.positions) shown[at] = p.digits[at]!
    return { atMs: p.atMs, clock: clockOf(shown), six: p.positions.length === 6 }
  })
}

// ---- the race of the issue: 8 lanes, provisional times, a split, a drop-out, a lane off, previous results

const race: RaceScript = {
  event: 12,
  heat: 3,
  preStartMs: 4000,
  runOnMs: 5000,
  afterMs: 6000,
  previous: {
    results: [
      { lane: 1, place: 3, timeMs: 30120 },
      { lane: 2, place: 1, timeMs: 29010 },
      { lane: 3, place: 2, timeMs: 29500 },
      { lane: 4, place: 4, timeMs: 31000 }
    ]
  },
  lanes: [
    { lane: 1, finishMs: 29876, provisional: true },
    { lane: 2, finishMs: 28915 },
    { lane: 3, finishMs: 30441, provisional: true, splitMs: [14210] },
    { lane: 4, finishMs: 31205, dropOut: { fromMs: 9000, toMs: 12500 } },
    { lane: 5, finishMs: 29301, provisional: true },
    { lane: 6, finishMs: 62_048 },
    { lane: 7, off: true },
    { lane: 8, finishMs: 33333 }
  ],
  advanceTo: { event: 13, heat: 1 }
}
const seeds = [1, 2, 3, 4, 5]
/** For timings drawn at random: enough seeds that the cycle alone would not keep them in range. */
const manySeeds = Array.from({ length: 16 }, (_, i) => i + 1)
const plays = new Map<string, { stream: ModelStream; packets: Array<Packet> }>()
/** The race played and read once per seed and options (the tests only look). */
const played = (seed: number, options: ModelOptions = {}) => {
  const key = JSON.stringify({ seed, ...options })
  if (!plays.has(key)) {
    const stream = raceStream(race, { seed, ...options })
    plays.set(key, { stream, packets: read(stream, options.baudRate) })
  }
  return plays.get(key)!
}

describe("console model: the line (§1, §2)", () => {
  it("sends 9600/11 bytes a second without a gap, 2400/11 in slow mode, each chunk stamped when its last byte left", () => {
    for (const baudRate of [9600, 2400] as const) {
      const stream = raceStream(race, { baudRate, chunkBytes: 32 })
      const bytes = stream.chunks.reduce((n, c) => n + c.bytes.length, 0)
      expect(bytes / (stream.chunks.at(-1)!.atMs / 1000)).toBeCloseTo(baudRate / 11, 6)
      stream.chunks.slice(0, -1).forEach((c, i) => {
        expect(c.bytes.length).toBe(32)
        expect(c.atMs).toBeCloseTo(((i + 1) * 32 * 11_000) / baudRate, 6)
      })
      expect(stream.chunks.at(-1)!.atMs).toBeGreaterThanOrEqual(stream.resetMs! + 6000 - 11_000 / baudRate)
    }
  })

  it("cycles 1…15, 1…15, 1…30: channels 1–15 three times as often as 16–30, every channel a digit packet then a format packet", () => {
    const { packets } = played(1)
    const counts = Array.from({ length: 32 }, (_, channel) => digitPackets(packets, channel).length)
    const low = counts.slice(1, 16).reduce((a, b) => a + b, 0) / 15
    const high = counts.slice(16, 31).reduce((a, b) => a + b, 0) / 15
    expect(low / high).toBeGreaterThan(2.85)
    expect(low / high).toBeLessThan(3.2)
    expect(counts[31]).toBe(0)
    const nonClock = packets.filter((p) => p.channel !== 0)
    nonClock.slice(1, -1).forEach((p, i) => {
      if (!p.format) expect([nonClock[i + 2]!.channel, nonClock[i + 2]!.format]).toEqual([p.channel, true])
    })
    expect(formatPackets(packets, 0)).toEqual([])
  })

  it("sends channel 0 every ~87 bytes: inside another packet when interrupting, at a packet boundary when not", () => {
    for (const interruptions of [true, false]) {
      const { packets } = played(2, { interruptions })
      const starts = digitPackets(packets, 0).map((p) => p.index)
      const gaps = starts.slice(1).map((at, i) => at - starts[i]!)
      expect((starts.at(-1)! - starts[0]!) / gaps.length).toBeCloseTo(960 / 11, 0)
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(interruptions ? 85 : 60)
      expect(Math.max(...gaps)).toBeLessThanOrEqual(interruptions ? 90 : 115)
      expect(digitPackets(packets, 0).every((p) => p.inside)).toBe(interruptions)
      expect(packets.some((p) => p.interrupted)).toBe(interruptions)
    }
  })

  it("resumes an interrupted packet with its remaining positions, never from position 0 again", () => {
    const { packets } = played(3)
    const whole = packets.slice(2, -1)
    const interrupted = whole.filter((p) => p.interrupted)
    expect(interrupted.length).toBeGreaterThan(300)
    expect(interrupted.length).toBe(digitPackets(whole, 0).filter((p) => p.inside).length)
    for (const p of interrupted) expect(p.positions).toEqual(p.running && !p.format ? [0, 1] : [0, 1, 2, 3, 4, 5, 6, 7])
    const uninterrupted = whole.filter((p) => !p.interrupted && p.channel !== 0)
    const lengths = new Set(uninterrupted.map((p) => p.positions.length))
    expect([...lengths].sort()).toEqual([2, 8])
  })

  it("is deterministic for a seed and differs between seeds", () => {
    const bytesOf = (seed: number) => Buffer.concat(raceStream(race, { seed }).chunks.map((c) => c.bytes))
    expect(bytesOf(7).equals(bytesOf(7))).toBe(true)
    expect(bytesOf(7).equals(bytesOf(8))).toBe(false)
  })
})

describe("console model: the clock (§4 ch0)", () => {
  it("shows 0.0 before the horn, counts tenths from .0 at the horn, runs on after the last touch and shows 0.0 after the reset", () => {
    for (const baudRate of [9600, 2400] as const) {
      const stream = raceStream(race, { seed: 4, baudRate })
      const readings = clockReadings(read(stream, baudRate)).filter((r) => r.atMs > 100)
      const tick = 960_000 / baudRate
      // A tick's packet leaves a few bytes after the tick: around the horn and the reset either state may show.
      const settled = readings.filter((r) => [stream.startMs, stream.resetMs!].every((at) => r.atMs < at || r.atMs > at + 20))
      for (const r of settled) {
        const elapsed = r.atMs - stream.startMs
        if (r.atMs < stream.startMs || r.atMs > stream.resetMs!) expect(r.clock, `${r.atMs}`).toBe("reset")
        else {
          expect(r.clock as number).toBeLessThanOrEqual(elapsed)
          expect(r.clock as number).toBeGreaterThan(elapsed - tick - 20)
        }
      }
      const lastTouch = Math.max(...stream.finishes.map((f) => f.touchMs))
      expect(readings.some((r) => r.atMs > lastTouch + 4000 && r.clock !== "reset")).toBe(true)
    }
  })

  it("sends six digits once a second and the tenths alone in between", () => {
    const { stream, packets } = played(5)
    const running = clockReadings(packets).filter((r) => r.atMs > stream.startMs && r.atMs < stream.resetMs!)
    const seconds = (running.at(-1)!.atMs - running[0]!.atMs) / 1000
    expect(running.filter((r) => r.six).length).toBeGreaterThanOrEqual(Math.floor(seconds))
    expect(running.filter((r) => r.six).length).toBeLessThanOrEqual(Math.ceil(seconds) + 1)
    for (const r of running.filter((r) => r.six)) expect((r.clock as number) % 1000).toBe(0)
  })
})

describe("console model: a race on the wire (§5)", () => {
  it("shows the previous results before the start, with the reset flag on lane digit 0 before the start and after the reset only", () => {
    const { stream, packets } = played(1)
    const before = between(packets, 200, stream.startMs)
    for (const result of race.previous!.results) {
      const shown = digitPackets(before, result.lane)
      expect(shown.length).toBeGreaterThan(3)
      for (const p of shown) expect([p.running, p.digits[0], p.digits[1], laneTime(p.digits)]).toEqual([false, result.lane, result.place, result.timeMs])
    }
    for (const p of digitPackets(before, 5)) expect(text(p.digits)).toBe("        ")
    const flag = (fromMs: number, toMs: number) => new Set(between(packets, fromMs, toMs).filter((p) => p.format && p.channel <= 10 && p.channel > 0).map((p) => p.digits[0]))
    expect(flag(200, stream.startMs)).toEqual(new Set([2]))
    expect(flag(stream.startMs + 50, stream.resetMs!)).toEqual(new Set([0]))
    expect(flag(stream.resetMs! + 50, stream.resetMs! + 6000)).toEqual(new Set([2]))
  })

  // ch23 and ch24 come once a full cycle (≈ 1.3 s); the note's "within about 0.7 s" fits lanes 1–10.
  it("switches every lane channel to running within 0.7 s of the horn (23, 24 within a cycle), the previous place showing for ~0.8 s", () => {
    const { stream, packets } = played(2)
    for (const channel of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 23, 24]) {
      const after = digitPackets(between(packets, stream.startMs, stream.resetMs!), channel)
      expect(after[0]!.atMs - stream.startMs, `ch${channel}`).toBeLessThan(channel > 10 ? 1400 : 700)
      expect(after[0]!.running).toBe(true)
      expect(after[0]!.positions).toEqual([0, 1])
      expect(after[0]!.digits[0]).toBe(channel > 10 ? channel - 12 : channel)
      const previous = race.previous!.results.find((r) => r.lane === channel)?.place ?? null
      for (const p of after.filter((p) => p.running && p.atMs < stream.startMs + 690)) expect(p.digits[1]).toBe(previous)
      for (const p of after.filter((p) => p.running && p.atMs > stream.startMs + 910)) expect(p.digits[1]).toBe(null)
    }
  })

  it("drops switched-off and unused lanes to blank 1–2 s after the start, for the rest of the race", () => {
    for (const seed of seeds) {
      const { stream, packets } = played(seed)
      for (const channel of [7, 9, 10, 23, 24]) {
        const after = digitPackets(between(packets, stream.startMs, stream.resetMs!), channel)
        const firstBlank = after.findIndex((p) => !p.running)
        expect(after[firstBlank]!.atMs - stream.startMs).toBeGreaterThan(1000)
        expect(after[firstBlank]!.atMs - stream.startMs).toBeLessThan(2700)
        expect(after.slice(firstBlank).every((p) => !p.running && text(p.digits) === "        ")).toBe(true)
      }
    }
  })

  it("shows each finish first 0.3–0.5 s after its touch; a provisional one in exactly one packet, 30–40 ms lower, replaced 0.3–0.65 s later", () => {
    for (const seed of manySeeds) {
      const { stream, packets } = played(seed)
      for (const finish of stream.finishes) {
        const script = race.lanes.find((l) => l.lane === finish.lane)!
        const stopped = digitPackets(between(packets, stream.startMs, stream.resetMs! + 6000), finish.lane)
          .filter((p) => !p.running && laneTime(p.digits) > finish.timeMs - 100)
        const first = stopped[0]!
        expect(first.atMs - finish.touchMs).toBeGreaterThanOrEqual(300)
        expect(first.atMs - finish.touchMs).toBeLessThanOrEqual(500)
        expect(first.atMs - (stream.startMs + finish.timeMs)).toBeLessThanOrEqual(500)
        const settled = stopped.filter((p) => p.digits[1] === finish.place && laneTime(p.digits) === finish.timeMs)
        if (script.provisional !== true) expect(stopped.every((p) => settled.includes(p))).toBe(true)
        else {
          expect(stopped.filter((p) => text(p.digits) === text(first.digits))).toEqual([first])
          expect(finish.timeMs - laneTime(first.digits)).toBeGreaterThanOrEqual(30)
          expect(finish.timeMs - laneTime(first.digits)).toBeLessThanOrEqual(40)
          expect([null, finish.place]).toContain(first.digits[1])
          expect(stopped[1]).toBe(settled[0])
          expect(settled[0]!.atMs - first.atMs).toBeGreaterThanOrEqual(300)
          expect(settled[0]!.atMs - first.atMs).toBeLessThanOrEqual(650)
        }
        expect(settled.length).toBeGreaterThan(10)
      }
    }
  })

  it("places follow the finish order, and the settled times are the touches truncated to hundredths", () => {
    const { stream, packets } = played(3)
    const shown = [1, 2, 3, 4, 5, 6, 8].map((lane) => {
      const last = digitPackets(between(packets, stream.resetMs! - 1500, stream.resetMs!), lane).at(-1)!
      return { lane, place: last.digits[1], timeMs: laneTime(last.digits) }
    })
    for (const s of shown) expect(s.place).toBe(1 + shown.filter((o) => o.timeMs < s.timeMs).length)
    const touches = Object.fromEntries(race.lanes.map((l) => [l.lane, l.finishMs]))
    for (const s of shown) expect(s.timeMs).toBe(Math.floor(touches[s.lane]! / 10) * 10)
    expect(stream.finishes.map((f) => [f.lane, f.place, f.timeMs])).toEqual(
      [...shown].sort((a, b) => a.timeMs - b.timeMs).map((s) => [s.lane, s.place, s.timeMs])
    )
    expect(stream.finishes.find((f) => f.lane === 6)!.time).toBe("1:02.04")
    expect(stream.finishes.find((f) => f.lane === 2)).toMatchObject({ time: "28.91", event: 12, heat: 3, touchMs: stream.startMs + 28915 })
  })

  it("shows a split without a place for about 3 s, first 0.3–0.5 s after it as a finish, then the lane runs again", () => {
    for (const seed of manySeeds) {
      const { stream, packets } = played(seed)
      const lane3 = digitPackets(between(packets, stream.startMs + 14_210, stream.startMs + 20_000), 3)
      const split = lane3.filter((p) => !p.running)
      expect(split.every((p) => p.digits[1] === null && laneTime(p.digits) === 14_210)).toBe(true)
      expect(split[0]!.atMs - (stream.startMs + 14_210)).toBeGreaterThanOrEqual(300)
      expect(split[0]!.atMs - (stream.startMs + 14_210)).toBeLessThanOrEqual(500)
      const shownMs = split.at(-1)!.atMs - split[0]!.atMs
      expect(shownMs).toBeGreaterThan(2100)
      expect(shownMs).toBeLessThan(3300)
      expect(lane3.filter((p) => p.atMs > split.at(-1)!.atMs).every((p) => p.running && p.digits[1] === null)).toBe(true)
    }
  })

  it("drops a lane out to a blank module and brings it back running", () => {
    const { stream, packets } = played(5)
    const lane4 = digitPackets(between(packets, stream.startMs + 8000, stream.startMs + 14_000), 4)
    const out = lane4.filter((p) => !p.running)
    expect(out.every((p) => text(p.digits) === "        ")).toBe(true)
    expect(out[0]!.atMs - (stream.startMs + 9000)).toBeLessThan(700)
    expect(out.at(-1)!.atMs).toBeLessThan(stream.startMs + 12_520)
    expect(lane4.at(-1)!.running).toBe(true)
  })

  it("keeps event/heat through the race and advances it after the reset; advanceAtMs advances it during the race", () => {
    const eventHeat = (packets: ReadonlyArray<Packet>) => digitPackets(packets, 12).map((p) => [p.atMs, text(p.digits)] as const)
    const { stream, packets } = played(1)
    const shown = eventHeat(packets)
    expect(new Set(shown.filter(([at]) => at < stream.resetMs! + 1000).map(([, t]) => t))).toEqual(new Set([" 12    3"]))
    expect(shown.at(-1)![1]).toBe(" 13    1")
    const during = raceStream({ ...race, advanceAtMs: 20_000 }, { seed: 1 })
    const advanced = eventHeat(read(during)).find(([, t]) => t === " 13    1")!
    expect(advanced[0] - during.startMs).toBeGreaterThan(20_000)
    expect(advanced[0] - during.startMs).toBeLessThan(21_000)
    expect(digitPackets(between(read(during), during.startMs + 2000, during.resetMs!), 20).map((p) => text(p.digits))).toContain(" 12    3")
  })

  it("fills the result channels: ch14 places by lane, ch25–27 settled times, ch11 lengths, ch18 the winner, ch15 the latest finish later", () => {
    const { stream, packets } = played(2)
    const lastOf = (channel: number, toMs: number) => text(digitPackets(between(packets, 0, toMs), channel).at(-1)!.digits)
    expect(lastOf(14, stream.startMs)).toBe("3124    ")
    expect(lastOf(14, stream.startMs + 3000)).toBe("        ")
    expect(lastOf(14, stream.resetMs!)).toBe("314527 6")
    expect(lastOf(25, stream.resetMs!)).toBe("2987" + "2891")
    expect(lastOf(11, stream.startMs + 3000)).toBe(" 0      ")
    expect(lastOf(11, stream.resetMs!)).toBe(" 2      ")
    expect(lastOf(18, stream.resetMs!)).toBe("21  2891")
    const latest = digitPackets(between(packets, stream.startMs, stream.resetMs!), 15).filter((p) => !p.running)
    const changes = latest.filter((p, i) => i === 0 || text(p.digits) !== text(latest[i - 1]!.digits))
    expect(changes.map((p) => p.digits[0]).sort()).toEqual(stream.finishes.map((f) => f.lane).sort())
    expect(changes[0]!.atMs - stream.finishes[0]!.touchMs).toBeGreaterThan(300)
    changes.slice(1).forEach((p, i) => expect(p.atMs - changes[i]!.atMs).toBeGreaterThan(3300))
    const pairs = digitPackets(between(packets, stream.startMs, stream.resetMs!), 25).map((p) => text(p.digits).slice(0, 4))
    expect(new Set(pairs)).toEqual(new Set(["    ", "2987"]))
  })

  it("blank mode: lanes, event and results blank with flag 4, ch3/15/22 the minutes; total blank: only channel 0; cycle 1–15, 17–25", () => {
    for (const total of [false, true]) {
      const stream = raceStream({ ...race, blank: { fromMs: 5000, toMs: 25_000, total } }, { seed: 3 })
      const inside = between(read(stream), stream.startMs + 5100, stream.startMs + 25_000)
      const channels = new Set(inside.filter((p) => p.channel > 0).map((p) => p.channel))
      expect([...channels].sort((a, b) => a - b)).toEqual([...Array.from({ length: 15 }, (_, i) => i + 1), ...Array.from({ length: 9 }, (_, i) => i + 17)])
      for (const p of inside.filter((p) => p.channel > 0 && !p.format)) {
        const minutes = !total && [3, 15, 22].includes(p.channel)
        expect(text(p.digits).replace(minutes ? /^    \d\d  $/ : /^ {8}$/, "ok"), `ch${p.channel}`).toBe("ok")
        expect(p.running).toBe(false)
      }
      for (const p of inside.filter((p) => p.format)) expect(p.digits.every((f) => f !== null && (f & 4) === 4)).toBe(true)
      expect(digitPackets(inside, 0).some((p) => p.digits.some((d) => d !== null))).toBe(true)
      expect(stream.finishes.length).toBe(7)
    }
  })

  it("puts lanes 11 and 12 on channels 23 and 24", () => {
    const stream = raceStream({ ...race, lanes: [{ lane: 11, finishMs: 30_000 }, { lane: 12, finishMs: 31_000 }] }, { seed: 1 })
    const packets = between(read(stream), stream.resetMs! - 200, stream.resetMs!)
    expect(text(digitPackets(packets, 23).at(-1)!.digits)).toBe("b1  3000")
    expect(text(digitPackets(packets, 24).at(-1)!.digits)).toBe("c2  3100")
  })

  it("plays races back to back on one byte clock, the second starting from the first's results", () => {
    const second: RaceScript = { ...race, event: 13, heat: 1, previous: undefined, preStartMs: 5000, lanes: [{ lane: 3, finishMs: 27_000 }] }
    const meet = meetStream([race, second], { seed: 6 })
    expect(meet.races.map((r) => r.finishes.length)).toEqual([7, 1])
    expect(meet.finishes).toEqual([...meet.races[0]!.finishes, ...meet.races[1]!.finishes])
    expect(meet.races[1]!.startMs).toBeGreaterThan(meet.races[0]!.startMs + 62_048 + 5000 + 6000)
    const packets = read(meet)
    const beforeSecond = between(packets, meet.races[1]!.startMs - 1000, meet.races[1]!.startMs)
    expect(text(digitPackets(beforeSecond, 2).at(-1)!.digits)).toBe("21  2891")
    expect(text(digitPackets(beforeSecond, 12).at(-1)!.digits)).toBe(" 13    1")
    expect(meet.races[1]!.finishes[0]).toMatchObject({ lane: 3, place: 1, event: 13, heat: 1, touchMs: meet.races[1]!.startMs + 27_000 })
    expect(meet.chunks.reduce((n, c) => n + c.bytes.length, 0) / (meet.chunks.at(-1)!.atMs / 1000)).toBeCloseTo(9600 / 11, 6)
  })

  it("hands its chunks to decoders stamped epoch + atMs", () => {
    const stream = raceStream(race, { seed: 1, chunkBytes: 7 })
    const chunks = receivedChunks(stream, 1_700_000_000_000)
    expect(chunks.map((c) => c.receivedAt)).toEqual(stream.chunks.map((c) => 1_700_000_000_000 + c.atMs))
    expect(chunks.map((c) => c.bytes)).toEqual(stream.chunks.map((c) => c.bytes))
  })
})
