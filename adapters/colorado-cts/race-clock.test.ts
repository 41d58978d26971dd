import { describe, expect, it } from "vitest"
import { addressByte, clockPacket, decoderFor, digitByte, digitPacket, resetClock, tenthsPacket } from "./test-support.ts"

/**
 * The readings of a fresh swimming decoder fed `packets`, one chunk each, stamped 1, 2, 3 …, then
 * an address of channel 31 (never sent) that ends the last packet.
 */
const readingsOf = (...packets: ReadonlyArray<ReadonlyArray<number>>) => {
  const decoder = decoderFor()
  const readings = [...packets, [0x80]].flatMap((packet, i) => decoder.push(Uint8Array.from(packet), i + 1))
  return { readings, stats: decoder.stats }
}

const clockOf = (text: string) => {
  const [reading] = readingsOf(clockPacket(text)).readings
  return { clock: reading?.clock, clockMs: reading?.race?.clockMs, clockReset: reading?.race?.clockReset }
}

describe("colorado-cts: the running clock (channel 0)", () => {
  it.each([
    { shown: resetClock, clock: "0.0", clockMs: 0, clockReset: true, what: "reset: 0.0 (d5, d6 = 0)" },
    { shown: "     000", clock: "0.00", clockMs: 0, clockReset: true, what: "reset with a hundredths digit of 0" },
    { shown: "      0 ", clock: ".0", clockMs: 0, clockReset: false, what: "the horn: .0 (d5 blank) is not a reset" },
    { shown: "      7 ", clock: ".7", clockMs: 700, clockReset: false, what: "the first second" },
    { shown: "    128 ", clock: "12.8", clockMs: 12_800, clockReset: false, what: "seconds and tenths" },
    { shown: "     10 ", clock: "1.0", clockMs: 1_000, clockReset: false, what: "one second" },
    { shown: "   1023 ", clock: "1:02.3", clockMs: 62_300, clockReset: false, what: "a minute shown: seconds zero-padded" },
    { shown: "  10000 ", clock: "10:00.0", clockMs: 600_000, clockReset: false, what: "ten minutes" },
    { shown: "    2891", clock: "28.91", clockMs: 28_910, clockReset: false, what: "hundredths, when sent" },
    { shown: "        ", clock: undefined, clockMs: undefined, clockReset: false, what: "all blank: no clock" }
  ])("$what: \"$shown\" → $clock", ({ shown, clock, clockMs, clockReset }) => {
    expect(clockOf(shown)).toEqual({ clock, clockMs, clockReset })
  })

  it("keeps the positions a packet does not carry: tenths-only packets between whole seconds", () => {
    const { readings } = readingsOf(clockPacket("    128 "), tenthsPacket(9), clockPacket("    130 "), tenthsPacket(1))
    expect(readings.map((r) => [r.clock, r.race?.clockMs])).toEqual([["12.8", 12_800], ["12.9", 12_900], ["13.0", 13_000], ["13.1", 13_100]])
  })

  it("shows no clock until a packet has carried every position of it", () => {
    const { readings, stats } = readingsOf(tenthsPacket(3), tenthsPacket(4), clockPacket("    125 "))
    expect(readings.map((r) => r.clock)).toEqual([undefined, undefined, "12.5"])
    expect(readings[0]!.race).toEqual({ clockReset: false, lanes: [] })
    expect(stats).toMatchObject({ frames: 3, badFrames: 0 })
  })

  it("makes a reading of every clock packet, stamped with its address byte's chunk", () => {
    const decoder = decoderFor()
    const packet = Uint8Array.from(clockPacket("    128 "))
    expect(decoder.push(packet.subarray(0, 3), 100)).toEqual([])
    expect(decoder.push(packet.subarray(3), 150)).toEqual([])
    // The packet ends at the next address byte (here another clock packet's).
    expect(decoder.push(Uint8Array.from([0xbe]), 180).map((r) => [r.receivedAt, r.clock])).toEqual([[100, "12.8"]])
  })

  it.each([
    { what: "seconds of 60 or more (d4 over 5)", packet: clockPacket("    628 ") },
    { what: "a value past 9", packet: digitPacket(0, [12], { positions: [6] }) },
    { what: "a digit where the clock has none (d0, d1)", packet: digitPacket(0, [1, null, null, 1, 2, 8], { positions: [1, 2, 3, 4, 5, 6] }) },
    { what: "the running bit on channel 0", packet: [addressByte(0, { running: true }), digitByte(6, 3), digitByte(7, null)] }
  ])("drops a clock packet that cannot be the clock: $what; nothing of it is kept", ({ packet }) => {
    const { readings, stats } = readingsOf(clockPacket("    128 "), packet, tenthsPacket(9))
    expect(readings.map((r) => r.clock)).toEqual(["12.8", "12.9"])
    expect(stats).toMatchObject({ frames: 2, badFrames: 1 })
  })
})
