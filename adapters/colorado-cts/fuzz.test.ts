import { describe, expect, it } from "vitest"
import type { LaneBoard } from "../../src/domain/race.ts"
import type { Reading } from "../../src/domain/reading.ts"
import { coloradoCts } from "./index.ts"
import { addressByte, concat, decoderFor, digitByte, type DigitValue, digitPacket, seededRandom, shortRace, swimStream, tenthsPacket } from "./test-support.ts"

/**
 * What this file proves, for any bytes in any chunking: `push` never throws; what comes out is
 * well-formed (lanes 1–12, places 1–12, times and clocks as a board writes them, counts in the
 * stats); and a stopped lane with a place is only ever read when two packets of its channel in a
 * row, as an independent reading of the same bytes frames them, carried that place and time — so
 * a value sent once (noise, a provisional finish) is never read, whatever surrounds it.
 */

type Random = ReturnType<typeof seededRandom>

const laneOfChannel = (channel: number) => (channel >= 1 && channel <= 10 ? channel : channel === 23 ? 11 : channel === 24 ? 12 : undefined)
const channelOfLane = (lane: number) => (lane <= 10 ? lane : lane + 12)

// ——— An independent reading of the bytes: what two packets in a row of a lane channel showed. ———

interface RefPacket {
  readonly address: number
  readonly digits: ReadonlyArray<number | undefined>
  readonly whole: boolean
}

/** Segments from each address byte to the next; a clock segment inside a shorter one is taken out and the same address's next segment joined. */
const referencePackets = (bytes: Uint8Array): ReadonlyArray<RefPacket> => {
  const segments: Array<{ address: number; digits: Array<number> }> = []
  for (const byte of bytes) {
    if (byte & 0x80) segments.push({ address: byte, digits: [] })
    else segments.at(-1)?.digits.push(byte)
  }
  const packets: Array<RefPacket> = []
  for (let i = 0; i < segments.length; i++) {
    const { address } = segments[i]!
    let digits = [...segments[i]!.digits]
    for (;;) {
      let j = i + 1
      while (address !== 0xbe && digits.length < 8 && segments[j]?.address === 0xbe) j++
      if (j === i + 1 || segments[j]?.address !== address) break
      digits = digits.concat(segments[j]!.digits)
      // The clock packets between are read (not a lane's) and the fragment joined: neither is looked at again.
      segments.splice(i + 1, j - i)
    }
    const byPosition: Array<number | undefined> = Array.from({ length: 8 })
    let whole = digits.length > 0
    for (const d of digits.slice(0, 8)) {
      if (byPosition[(d >> 4) & 7] !== undefined) whole = false
      byPosition[(d >> 4) & 7] = (d & 0xf) ^ 0xf
    }
    packets.push({ address, digits: byPosition, whole })
  }
  return packets
}

/** `lane place timeMs` of every stopped content two packets in a row of a lane channel carried (no place check: that is the decoder's). */
const repeatedFinishes = (bytes: Uint8Array): Set<string> => {
  const repeated = new Set<string>()
  const previous = new Map<number, string>()
  for (const packet of referencePackets(bytes)) {
    const lane = laneOfChannel(((packet.address >> 1) & 0x1f) ^ 0x1f)
    if (lane === undefined || (packet.address & 1) === 1) continue
    const key = packet.whole && (packet.address & 0x40) === 0 ? finishKey(lane, packet.digits) : undefined
    if (key !== undefined && previous.get(lane) === key) repeated.add(key)
    previous.set(lane, key ?? "")
  }
  return repeated
}

const value = (d: number | undefined) => (d === undefined || d === 15 ? 0 : d)

/** `lane place timeMs` of a stopped lane packet whose lane digit names its lane (10–12 also by their last digit) or is blank. */
const finishKey = (lane: number, digits: ReadonlyArray<number | undefined>): string | undefined => {
  const [laneDigit, place, m1, m2, s1, s2, h1, h2] = digits.map(value)
  if (digits[0] !== undefined && digits[0] !== 15 && laneDigit !== lane && laneDigit !== lane % 10) return undefined
  return `${lane} ${place} ${((m1! * 10 + m2!) * 60 + s1! * 10 + s2!) * 1000 + (h1! * 10 + h2!) * 10}`
}

// ——— Readings as the bridge may receive them. ———

const timePattern = /^(\d{1,2}:\d\d|\d{1,2})\.\d\d$/u
const clockPattern = /^(\d{1,2}:\d\d|\d{0,2})(\.\d{1,2})?$/u

const isLaneWellFormed = (lane: LaneBoard): boolean =>
  lane.lane >= 1 && lane.lane <= 12 && (lane.state !== "stopped"
    ? Object.keys(lane).length === 2
    : timePattern.test(lane.time ?? "") && lane.timeMs! > 0 && (lane.place === undefined || (lane.place >= 1 && lane.place <= 12)))

/** Why a reading is not well-formed, or undefined (checked without `expect` per field: there are hundreds of thousands). */
const malformation = (r: Reading, sport: string): string | undefined => {
  if (!Object.keys(r).every((k) => ["receivedAt", "clock", "race", "shown", "home", "away", "period"].includes(k))) return "an unknown key"
  if (r.clock !== undefined && !(sport === "swimming" ? clockPattern : /^\d{1,2}:[0-5]\d$/u).test(r.clock)) return "the clock"
  if (sport !== "swimming") return r.race === undefined ? undefined : "a race outside swimming"
  const race = r.race
  if (race === undefined) return "no race"
  if (race.clockMs !== undefined && !(Number.isSafeInteger(race.clockMs) && race.clockMs >= 0)) return "clockMs"
  const lanes = race.lanes.map((l) => l.lane)
  if (lanes.some((lane, i) => i > 0 && lane <= lanes[i - 1]!)) return "lanes out of order or twice"
  return race.lanes.every(isLaneWellFormed) ? undefined : "a lane"
}

/** Whatever came in, what goes out must be well-formed. */
const expectWellFormed = (readings: ReadonlyArray<Reading>, sport: string) => {
  const bad = readings.flatMap((r) => {
    const why = malformation(r, sport)
    return why === undefined ? [] : [`${why}: ${JSON.stringify(r)}`]
  })
  expect(bad).toEqual([])
}

const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0

const decodeAll = (sport: string, bytes: Uint8Array, random: Random, maxChunk: number) => {
  const decoder = decoderFor(sport)
  const readings = random.chunks(bytes, maxChunk).flatMap((chunk, i) => decoder.push(chunk, i))
  return { readings, stats: decoder.stats }
}

/** Every stopped lane with a place in the readings, as `lane place timeMs`. */
const finishesRead = (readings: ReadonlyArray<Reading>): Set<string> =>
  new Set(readings.flatMap((r) => (r.race?.lanes ?? []).filter((l) => l.place !== undefined).map((l) => `${l.lane} ${l.place} ${l.timeMs}`)))

// ——— Random input. ———

/** Bytes drawn from what this line is made of: lane and clock addresses, digit bytes of a few values, now and then anything. */
const likelyBytes = (random: Random, length: number) =>
  Uint8Array.from({ length }, () => {
    const roll = random.next()
    if (roll < 0.12) return addressByte([1, 2, 23, 12][random.int(0, 3)]!, { running: random.next() < 0.2 })
    if (roll < 0.16) return 0xbe
    if (roll < 0.9) return digitByte(random.int(0, 7), [0, 1, 2, 9, null][random.int(0, 4)]!)
    return random.int(0, 255)
  })

/** A lane packet's digits: mostly what a lane shows (its number, a place, a time), sometimes what it never shows. */
const laneDigits = (random: Random, lane: number): Array<DigitValue> => {
  const laneDigit = random.next() < 0.9 ? lane % 10 : random.int(0, 14)
  const place = random.next() < 0.1 ? 0 : random.next() < 0.2 ? null : random.int(1, 14)
  const time = random.next() < 0.05 ? [0, 0, 0, 0, 0, 0] : [null, null, random.int(1, 5), random.int(0, 9), random.int(0, 9), random.int(0, 9)]
  return [laneDigit, place, ...time]
}

/**
 * A stream of lane packets, each sent once (a provisional time, noise) or two or three times in a
 * row, with clock packets between them and inside them (the address again and the rest after).
 */
const packetStream = (random: Random, packets: number) => {
  const parts: Array<ReadonlyArray<number>> = []
  for (let n = 0; n < packets; n++) {
    const lane = [1, 2, 3, 11, 12][random.int(0, 4)]!
    const running = random.next() < 0.2
    const digits = laneDigits(random, lane)
    const packet = running ? digitPacket(channelOfLane(lane), digits.slice(0, 2), { running }) : digitPacket(channelOfLane(lane), digits)
    const times = random.next() < 0.4 ? 1 : random.int(2, 3)
    for (let t = 0; t < times; t++) {
      const cut = random.int(0, packet.length - 1)
      parts.push(random.next() < 0.3 ? [...packet.slice(0, cut + 1), ...tenthsPacket(random.int(0, 9)), packet[0]!, ...packet.slice(cut + 1)] : packet)
      if (random.next() < 0.3) parts.push(tenthsPacket(random.int(0, 9)))
    }
  }
  return concat(...parts.map((p) => Uint8Array.from(p)))
}

describe("colorado-cts: push never throws", () => {
  it("on random bytes, uniform or made of this line's bytes, in random chunks, in both sports", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(seed)
      const sport = seed % 3 === 0 ? "waterpolo" : "swimming"
      const bytes = seed % 2 === 0 ? random.bytes(random.int(0, 4000)) : likelyBytes(random, random.int(0, 4000))
      const { readings, stats } = decodeAll(sport, bytes, random, 64)
      expectWellFormed(readings, sport)
      expect(Object.values(stats).every(isCount), `seed ${seed}`).toBe(true)
      // Every packet outcome starts at an address byte.
      expect(stats.frames + stats.badFrames, `seed ${seed}`).toBeLessThanOrEqual(bytes.filter((b) => b & 0x80).length)
      expect(readings.length, `seed ${seed}`).toBeLessThanOrEqual(stats.frames)
      const repeated = repeatedFinishes(bytes)
      expect([...finishesRead(readings)].filter((finish) => !repeated.has(finish)), `seed ${seed}`).toEqual([])
    }
  })

  it("on empty chunks, NaN receive times and a place whose sport has no layout here", () => {
    const { bytes } = swimStream({ ...shortRace, durationMs: 5_000 })
    const odd = coloradoCts.makeDecoder({ sport: "" })
    expect(() => odd.push(bytes, Number.NaN)).not.toThrow()
    expect(() => odd.push(new Uint8Array(0), 0)).not.toThrow()
  })
})

describe("colorado-cts: a stopped lane with a place is read only when two packets in a row carried it", () => {
  it("on streams of lane packets sent once or repeated, interrupted by clock packets, then mutated", () => {
    let read = 0
    for (let seed = 1; seed <= 80; seed++) {
      const random = seededRandom(3000 + seed)
      const clean = packetStream(random, 120)
      const bytes = seed % 4 === 0 ? clean : random.mutate(clean, random.int(1, 60))
      const { readings } = decodeAll("swimming", bytes, random, 48)
      expectWellFormed(readings, "swimming")
      const repeated = repeatedFinishes(bytes)
      const finishes = finishesRead(readings)
      expect([...finishes].filter((finish) => !repeated.has(finish)), `seed ${seed}`).toEqual([])
      read += finishes.size
    }
    // Not vacuous: many repeated finishes were read.
    expect(read).toBeGreaterThan(500)
  })

  it("reads every plausible finish two packets in a row carried, on unmutated streams", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = seededRandom(5000 + seed)
      const bytes = packetStream(random, 150)
      const read = finishesRead(decodeAll("swimming", bytes, random, 48).readings)
      const repeated = repeatedFinishes(bytes)
      const plausible = [...repeated].filter((key) => {
        const [, place, timeMs] = key.split(" ").map(Number)
        return place! >= 1 && place! <= 12 && timeMs! > 0
      })
      expect(plausible.filter((key) => !read.has(key)), `seed ${seed}`).toEqual([])
    }
  })

  it("reads the same whatever the chunks", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(7000 + seed)
      const bytes = random.mutate(packetStream(random, 80), 10)
      const strip = (readings: ReadonlyArray<Reading>) => readings.map(({ receivedAt: _, ...r }) => JSON.stringify(r))
      const whole = strip(decodeAll("swimming", bytes, random, 1_000_000).readings)
      expect(strip(decodeAll("swimming", bytes, random, 3).readings), `seed ${seed}`).toEqual(whole)
    }
  })
})
