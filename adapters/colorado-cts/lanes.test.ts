import { describe, expect, it } from "vitest"
import type { LaneBoard } from "../../src/domain/race.ts"
import type { Reading } from "../../src/domain/reading.ts"
import {
  blankedFormat,
  clockPacket,
  decoderFor,
  digitPacket,
  digitsOf,
  formatPacket,
  interrupted,
  lanePacket,
  tenthsPacket,
  twice
} from "./test-support.ts"

/** Channel 31 (never sent): its address ends the packet before it. */
const end = [0x80]

/**
 * A channel-31 packet of one digit, to end a short packet before a clock packet comes: a clock
 * packet right after a short one holds it until the next address (it may be an interruption).
 */
const filler = [0x80, 0x0f]

/** Feeds each packet as its own chunk, stamped 1, 2, 3 …; the readings and the stats. */
const feed = (...packets: ReadonlyArray<ReadonlyArray<number>>) => {
  const decoder = decoderFor()
  const readings = [...packets, end].flatMap((packet, i) => decoder.push(Uint8Array.from(packet), i + 1))
  return { readings, stats: decoder.stats }
}

const laneIn = (reading: Reading | undefined, lane: number): LaneBoard | undefined => reading?.race?.lanes.find((l) => l.lane === lane)

/** Lane `lane`'s board in each reading, in order. */
const laneStates = (readings: ReadonlyArray<Reading>, lane: number) => readings.map((r) => laneIn(r, lane))

const running = (lane: number, place = " ") => lanePacket(lane, `${lane % 10}${place}`, true)

describe("colorado-cts lanes: confirmed by repetition", () => {
  it("reads a stopped lane only once two packets in a row showed it, with the second's stamp", () => {
    const stopped = lanePacket(2, "21  2891")
    const { readings } = feed(stopped, stopped)
    expect(readings).toEqual([{ receivedAt: 2, race: { clockReset: false, lanes: [{ lane: 2, state: "stopped", place: 1, time: "28.91", timeMs: 28_910 }] } }])
  })

  it("never reads a provisional finish sent once: the lane goes from running to its settled place and time", () => {
    const { readings, stats } = feed(
      twice(running(3)),
      filler,
      clockPacket("    295 "),
      lanePacket(3, "3   2942"),
      clockPacket("    298 "),
      twice(lanePacket(3, "32  2945")),
      clockPacket("    301 ")
    )
    expect(laneStates(readings, 3)).toEqual([
      { lane: 3, state: "running" },
      { lane: 3, state: "running" },
      { lane: 3, state: "running" },
      { lane: 3, state: "stopped", place: 2, time: "29.45", timeMs: 29_450 },
      { lane: 3, state: "stopped", place: 2, time: "29.45", timeMs: 29_450 }
    ])
    expect(stats).toMatchObject({ unconfirmed: 1, implausible: 0, badFrames: 0 })
  })

  it("makes no reading for a module re-sent unchanged (the clock's packets make the readings)", () => {
    const stopped = lanePacket(2, "21  2891")
    expect(feed(stopped, stopped, stopped, stopped, stopped).readings).toHaveLength(1)
  })

  it("takes a dropped packet between two alike as a break: the pair is not a repetition", () => {
    const stopped = lanePacket(2, "21  2891")
    const wrongLane = lanePacket(2, "31  2891")
    const { readings, stats } = feed(stopped, wrongLane, stopped)
    expect(readings).toEqual([])
    expect(stats).toMatchObject({ implausible: 1, badFrames: 1 })
    expect(feed(stopped, wrongLane, stopped, stopped).readings.map((r) => laneIn(r, 2)?.state)).toEqual(["stopped"])
    // A malformed packet of the channel breaks it as well.
    expect(feed(stopped, [0xba, 0xbc], stopped).readings).toEqual([])
  })

  it("keeps the confirmed module while a new content waits for its twin", () => {
    const { readings } = feed(twice(lanePacket(2, "21  2891")), lanePacket(2, "2       "), clockPacket("     00 "))
    expect(laneIn(readings.at(-1), 2)).toEqual({ lane: 2, state: "stopped", place: 1, time: "28.91", timeMs: 28_910 })
  })
})

describe("colorado-cts lanes: interrupted packets", () => {
  it.each([0, 1, 3, 5, 7])("merges a stopped packet cut after %i digits by a clock packet: never half-applied", (after) => {
    const stopped = lanePacket(2, "21 12891")
    const cut = interrupted(stopped, after, tenthsPacket(4))
    const { readings, stats } = feed(twice(running(2)), filler, clockPacket("   1233 "), cut, cut, tenthsPacket(5))
    const states = laneStates(readings, 2)
    for (const state of states) expect([{ lane: 2, state: "running" }, { lane: 2, state: "stopped", place: 1, time: "1:28.91", timeMs: 88_910 }]).toContainEqual(state)
    expect(states.at(-1)).toMatchObject({ state: "stopped", time: "1:28.91" })
    // The clock packets inside the two stopped packets read the lane as it was (running); the second, once whole, stops it.
    expect(readings.filter((r) => r.clock === "1:23.4").map((r) => laneIn(r, 2)?.state)).toEqual(["running", "running", "stopped"])
    expect(stats).toMatchObject({ interrupted: 2, badFrames: 0 })
  })

  it("stamps a merged packet with its first fragment's chunk", () => {
    const decoder = decoderFor()
    const stopped = lanePacket(2, "21  2891")
    decoder.push(Uint8Array.from(stopped), 10)
    const cut = interrupted(stopped, 4, tenthsPacket(1))
    expect(decoder.push(Uint8Array.from(cut.slice(0, 5)), 20)).toEqual([])
    const readings = decoder.push(Uint8Array.from([...cut.slice(5), ...end]), 30)
    expect(readings.map((r) => [r.receivedAt, laneIn(r, 2)?.state])).toEqual([[30, undefined], [20, "stopped"]])
  })
})

describe("colorado-cts lanes: what a module shows", () => {
  it.each([
    { what: "running, the previous race's place still in d1", packet: lanePacket(4, "43", true), lane: 4, board: { lane: 4, state: "running" } },
    { what: "running, place blanked", packet: running(4), lane: 4, board: { lane: 4, state: "running" } },
    { what: "a split: a time, no place", packet: lanePacket(4, "4   1502"), lane: 4, board: { lane: 4, state: "stopped", time: "15.02", timeMs: 15_020 } },
    { what: "a time under ten seconds", packet: lanePacket(4, "41   902"), lane: 4, board: { lane: 4, state: "stopped", place: 1, time: "9.02", timeMs: 9_020 } },
    { what: "a time of ten minutes", packet: lanePacket(4, "46100000"), lane: 4, board: undefined },
    { what: "lane number only: blank", packet: lanePacket(4, "4       "), lane: 4, board: { lane: 4, state: "blank" } },
    { what: "all blank (switched off)", packet: lanePacket(4, "        "), lane: 4, board: { lane: 4, state: "blank" } },
    { what: "place 13 (D: disqualified; unverified): no place", packet: digitPacket(4, [4, 13, null, null, 3, 1, 0, 5]), lane: 4, board: { lane: 4, state: "stopped", time: "31.05", timeMs: 31_050 } },
    { what: "places 10 to 12 as one digit", packet: digitPacket(4, [4, 11, null, 1, 0, 2, 3, 4]), lane: 4, board: { lane: 4, state: "stopped", place: 11, time: "1:02.34", timeMs: 62_340 } },
    { what: "lane 10 as digit 10", packet: digitPacket(10, [10, 2, null, null, 2, 9, 0, 0]), lane: 10, board: { lane: 10, state: "stopped", place: 2, time: "29.00", timeMs: 29_000 } },
    { what: "lane 10 as digit 0", packet: digitPacket(10, [0, 2, null, null, 2, 9, 0, 0]), lane: 10, board: { lane: 10, state: "stopped", place: 2, time: "29.00", timeMs: 29_000 } },
    { what: "lane 11 on channel 23", packet: lanePacket(23, "13  3050"), lane: 11, board: { lane: 11, state: "stopped", place: 3, time: "30.50", timeMs: 30_500 } },
    { what: "lane 12 on channel 24, running", packet: lanePacket(24, "2 ", true), lane: 12, board: { lane: 12, state: "running" } }
  ])("$what", ({ packet, lane, board }) => {
    const { readings } = feed(packet, packet)
    expect(laneIn(readings.at(-1), lane)).toEqual(board ?? { lane, state: "stopped", place: 6, time: "10:00.00", timeMs: 600_000 })
  })

  it("reads the event and heat from channel 12, and the lanes in lane order", () => {
    const event = digitPacket(12, digitsOf(" 12    3"))
    const { readings } = feed(twice(lanePacket(24, "2 ", true)), twice(lanePacket(1, "1 ", true)), twice(event))
    expect(readings.at(-1)!.race).toEqual({ clockReset: false, event: 12, heat: 3, lanes: [{ lane: 1, state: "running" }, { lane: 12, state: "running" }] })
  })
})

describe("colorado-cts lanes: the console's blank mode (format flag 4)", () => {
  const results = [1, 2, 3].map((lane) => twice(lanePacket(lane, `${lane}${lane}  3${lane}00`)))

  it("shows every lane blank, and the board blanked, once every lane channel's format packets say 4 on every digit", () => {
    const { readings } = feed(...results, ...[1, 2, 3].map((lane) => twice(blankedFormat(lane))), clockPacket("    128 "))
    expect(readings.at(-1)!.race).toEqual({ clockMs: 12_800, clockReset: false, blanked: true, lanes: [1, 2, 3].map((lane) => ({ lane, state: "blank" })) })
  })

  it("takes 6 and 0xC as blank too (the 4 is in them), and not the colon flag 2 alone", () => {
    const flags = (values: ReadonlyArray<number>) => formatPacket(1, values)
    const blanked = feed(...results, twice(flags([4, 4, 4, 6, 4, 0xc, 4, 4])))
    expect(laneIn(blanked.readings.at(-1), 1)).toEqual({ lane: 1, state: "blank" })
    const colon = feed(...results, twice(flags([2, 0, 0, 0, 2, 2, 0, 0])))
    expect(laneIn(colon.readings.at(-1), 1)).toMatchObject({ state: "stopped" })
  })

  it("blanks one lane whose format says so, without calling the board blanked while the others show", () => {
    const { readings } = feed(...results, ...[1, 2, 3].map((lane) => twice(formatPacket(lane, [0, 0, 0, 0, 2, 2, 0, 0]))), twice(blankedFormat(2)))
    const race = readings.at(-1)!.race!
    expect(race.blanked).toBeUndefined()
    expect(race.lanes.map((l) => l.state)).toEqual(["stopped", "blank", "stopped"])
  })
})

describe("colorado-cts lanes: packets the console never sends are counted and ignored", () => {
  it.each([
    { what: "a lane digit naming another lane", packet: lanePacket(3, "41  2891") },
    { what: "a running lane naming another lane", packet: lanePacket(3, "5 ", true) },
    { what: "place 0", packet: lanePacket(3, "30  2891") },
    { what: "an all-zero time", packet: lanePacket(3, "31  0000") },
    { what: "an all-zero time with minutes", packet: lanePacket(3, "31000000") },
    { what: "a place without a time", packet: lanePacket(3, "31      ") },
    { what: "seconds of 60 or more", packet: lanePacket(3, "31  7891") },
    { what: "a blank inside the time", packet: lanePacket(3, "31  28 1") },
    { what: "a value past 9 in the time", packet: digitPacket(3, [3, 1, null, null, 2, 12, 9, 1]) }
  ])("$what", ({ packet }) => {
    const before = twice(lanePacket(3, "3 ", true))
    const { readings, stats } = feed(before, packet, packet, packet)
    expect(laneStates(readings, 3)).toEqual([{ lane: 3, state: "running" }])
    expect(stats).toMatchObject({ implausible: 3, badFrames: 3, frames: 2 })
  })

  it("does not check lane channels as lanes in water polo", () => {
    const packet = lanePacket(3, "41  0000")
    const decoder = decoderFor("waterpolo")
    decoder.push(Uint8Array.from([...packet, ...packet, ...end]), 1)
    expect(decoder.stats).toMatchObject({ implausible: 0, frames: 2 })
  })
})
