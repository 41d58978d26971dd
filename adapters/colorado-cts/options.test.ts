import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { coloradoCts } from "./index.ts"
import type { ColoradoOptions } from "./options.ts"
import { clockPacket, decoderFor, digitPacket, digitsOf, lanePacket, twice } from "./test-support.ts"

const strict = { errors: "all", onExcessProperty: "error" } as const
const problem = (options: unknown) => {
  const result = Schema.decodeUnknownResult(coloradoCts.optionsSchema)(options, strict)
  return result._tag === "Failure" ? result.failure.message : "accepted"
}

/** Channel 31 (never sent): ends the packet before it. */
const end = [0x80]

const readingsWith = (sport: string, options: ColoradoOptions, ...packets: ReadonlyArray<ReadonlyArray<number>>) => {
  const decoder = decoderFor(sport, options)
  return [...packets, end].flatMap((packet, i) => decoder.push(Uint8Array.from(packet), i + 1))
}

/** D's water polo map (unverified): scores on 13 (home d0–1, guest d6–7), period 14 d1, game clock on channel 1. */
const waterPolo: ColoradoOptions = {
  home: { channel: 13, digits: "0-1" },
  away: { channel: 13, digits: "6-7" },
  period: { channel: 14, digits: "1" },
  gameClock: { channel: 1, digits: "2-5" }
}

describe("colorado-cts options", () => {
  it("takes {} (sniff tries the protocol with it) and every field as { channel, digits }", () => {
    expect(problem({})).toBe("accepted")
    expect(problem(waterPolo)).toBe("accepted")
    expect(problem({ home: { channel: 20, digits: "0-3" }, away: { channel: 20, digits: "4-7" } })).toBe("accepted")
  })

  it("names the option that is misspelt or wrong", () => {
    expect(problem({ hoem: { channel: 20, digits: "0-3" } })).toMatch(/\["hoem"\]/)
    expect(problem({ home: { channel: 20, digit: "0-3" }, away: { channel: 20, digits: "4-7" } })).toMatch(/\["home"\]\["digit"\]/)
    expect(problem({ home: { channel: 32, digits: "0-3" }, away: { channel: 20, digits: "4-7" } })).toMatch(/\["home"\]\["channel"\]/)
    expect(problem({ home: { channel: 20, digits: "0-8" }, away: { channel: 20, digits: "4-7" } })).toMatch(/"0-8" is not "<first>-<last>" with positions 0 to 7[^]*\["home"\]\["digits"\]/)
    expect(problem({ home: { channel: 20, digits: "3-0" }, away: { channel: 20, digits: "4-7" } })).toMatch(/the last position 0 comes before the first 3[^]*\["home"\]\["digits"\]/)
  })

  it("refuses one score without the other, a field of the wrong width, two fields on the same digits, a score on the clock's channel", () => {
    expect(problem({ home: { channel: 20, digits: "0-3" } })).toMatch(/home and away go together: give away too[^]*\["away"\]/)
    expect(problem({ ...waterPolo, away: { channel: 13, digits: "1-5" } })).toMatch(/a score is 1 to 4 digits, not 5[^]*\["away"\]\["digits"\]/)
    expect(problem({ ...waterPolo, period: { channel: 14, digits: "0-2" } })).toMatch(/the period is 1 or 2 digits, not 3[^]*\["period"\]\["digits"\]/)
    expect(problem({ gameClock: { channel: 1, digits: "2-3" } })).toMatch(/the clock is 3 or 4 digits \(MSS or MMSS\), not 2[^]*\["gameClock"\]\["digits"\]/)
    expect(problem({ ...waterPolo, away: { channel: 13, digits: "1-2" } })).toMatch(/away at channel 13 digits 1-2 shares digits with home[^]*\["away"\]\["digits"\]/)
    expect(problem({ home: { channel: 0, digits: "2-3" }, away: { channel: 20, digits: "4-7" } })).toMatch(/channel 0 is the running clock[^]*\["home"\]\["channel"\]/)
  })

  it("says what swimming makes wrong: a game clock, a field on a lane's or the event's channel", () => {
    expect(coloradoCts.sportProblems!({ home: { channel: 20, digits: "0-3" }, away: { channel: 21, digits: "0-3" } }, "swimming")).toEqual([])
    expect(coloradoCts.sportProblems!(waterPolo, "waterpolo")).toEqual([])
    expect(coloradoCts.sportProblems!(waterPolo, "swimming")).toEqual([
      { path: ["gameClock"], issue: "gameClock is for water polo: in swimming the clock is the race clock on channel 0, read without options" }
    ])
    expect(coloradoCts.sportProblems!({ home: { channel: 3, digits: "0-1" }, away: { channel: 12, digits: "6-7" } }, "swimming")).toEqual([
      { path: ["home", "channel"], issue: "home: channel 3 is lane 3 in the swimming layout" },
      { path: ["away", "channel"], issue: "away: channel 12 is the event and heat in the swimming layout" }
    ])
  })

  it("refuses to build a decoder from options that skipped the schema", () => {
    expect(() => coloradoCts.makeDecoder({ sport: "waterpolo", home: { channel: 13, digits: "0-1" } })).toThrow(/colorado-cts options\.away: home and away go together/)
  })
})

describe("colorado-cts fields: water polo and team scores", () => {
  const scores = (text: string) => digitPacket(13, digitsOf(text))

  it("without options, never reads a score: water polo shows the confirmed channels on each change, blank ones left out", () => {
    const readings = readingsWith("waterpolo", {}, twice(scores(" 3     2")), twice(digitPacket(14, digitsOf(" 2 12345"))), twice(digitPacket(15, digitsOf(""))), clockPacket("    128 "))
    expect(readings).toEqual([
      { receivedAt: 1, shown: [{ label: "channel 13", text: " 3     2" }] },
      { receivedAt: 2, shown: [{ label: "channel 13", text: " 3     2" }, { label: "channel 14", text: " 2 12345" }] },
      { receivedAt: 3, shown: [{ label: "channel 13", text: " 3     2" }, { label: "channel 14", text: " 2 12345" }] }
    ])
  })

  it("marks a running module in what it shows", () => {
    const readings = readingsWith("waterpolo", {}, twice(lanePacket(5, "5 ", true)), end)
    expect(readings.at(-1)!.shown).toEqual([{ label: "channel 5 (running)", text: "5       " }])
  })

  it("with D's map, reads home, guest, period and the game clock from their confirmed channels", () => {
    const readings = readingsWith(
      "waterpolo",
      waterPolo,
      twice(scores(" 3    12")),
      twice(digitPacket(14, digitsOf(" 2 12345"))),
      twice(digitPacket(1, digitsOf("   735  "))),
      digitPacket(1, digitsOf("   734  ")),
      twice(scores(" 4    12"))
    )
    expect(readings.map(({ receivedAt: _, ...r }) => r)).toEqual([
      { home: 3, away: 12 },
      { home: 3, away: 12, period: 2 },
      { home: 3, away: 12, period: 2, clock: "7:35" },
      { home: 4, away: 12, period: 2, clock: "7:35" }
    ])
  })

  it("leaves both scores out when one side is blank or not digits, and reads no clock that is not M:SS", () => {
    const both = { home: waterPolo.home!, away: waterPolo.away!, gameClock: waterPolo.gameClock! }
    const pastNine = digitPacket(13, [1, 12, null, null, null, null, 1, 2])
    const readings = readingsWith("waterpolo", both, twice(scores("      12")), twice(pastNine), twice(digitPacket(1, digitsOf("   775  "))))
    expect(readings.map(({ receivedAt: _, ...r }) => r)).toEqual([{}, {}, {}])
  })

  it("gives a swimming dual meet its team scores beside the race board", () => {
    const options = { home: { channel: 20, digits: "0-3" }, away: { channel: 20, digits: "4-7" } }
    const readings = readingsWith("swimming", options, twice(digitPacket(20, digitsOf(" 101  87"))), clockPacket("     00 "))
    expect(readings.at(-1)).toEqual({ receivedAt: 2, clock: "0.0", race: { clockMs: 0, clockReset: true, lanes: [] }, home: 101, away: 87 })
    expect(readings.every((r) => r.shown === undefined)).toBe(true)
  })

  it("reads a game clock from channel 0 when told to, on every clock packet", () => {
    const readings = readingsWith("waterpolo", { gameClock: { channel: 0, digits: "2-5" } }, clockPacket("   735  "), clockPacket("   734  "))
    expect(readings.map((r) => r.clock)).toEqual(["7:35", "7:34"])
  })
})
