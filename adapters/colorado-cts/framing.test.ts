import { describe, expect, it } from "vitest"
import { absent, channelOf, type Malformed, type Packet, PacketAssembler } from "./framing.ts"
import { addressByte, bytes, clockPacket, digitByte, digitPacket, digitsOf, interrupted, lanePacket, seededRandom, tenthsPacket } from "./test-support.ts"

type Event =
  | { readonly packet: string; readonly at: number; readonly fragments: number }
  | { readonly malformed: number; readonly why: Malformed }

/** A packet as `ch3 R 0:1 1:5` (channel, F for format, R for running, position:value; `b` = blank). */
const describePacket = (p: Packet): string => {
  const digits = Array.from(p.digits).flatMap((d, position) => (d === absent ? [] : [`${position}:${d === 15 ? "b" : d}`]))
  return [`ch${p.channel}`, ...(p.format ? ["F"] : []), ...(p.running ? ["R"] : []), ...digits].join(" ")
}

/** Everything the assembler hands on, in order, with the stats; chunks are [bytes, receivedAt]. */
const assemble = (...chunks: ReadonlyArray<readonly [ReadonlyArray<number>, number]>) => {
  const stats = { skippedBytes: 0, interrupted: 0 }
  const assembler = new PacketAssembler(stats)
  const events: Array<Event> = []
  for (const [chunk, at] of chunks) {
    assembler.push(Uint8Array.from(chunk), at, {
      packet: (p) => events.push({ packet: describePacket(p), at: p.startedAt, fragments: p.fragments }),
      malformed: (address, why) => events.push({ malformed: channelOf(address), why })
    })
  }
  return { events, stats }
}

const lane2Stopped = lanePacket(2, "21  2891")
const lane2Digits = "ch2 0:2 1:1 2:b 3:b 4:2 5:8 6:9 7:1"

describe("colorado-cts framing: address and digit bytes", () => {
  it("reads every address byte as channel (bits 1–5 inverted), format (bit 0) and running (bit 6)", () => {
    const table = [
      [0xbe, 0, false, false],
      [0xbf, 0, true, false],
      [0xbc, 1, false, false],
      [0xfc, 1, false, true],
      [0xfd, 1, true, true],
      [0xea, 10, false, true],
      [0xa6, 12, false, false],
      [0x82, 30, false, false],
      [0x80, 31, false, false]
    ] as const
    for (const [byte, channel, format, running] of table) {
      expect(channelOf(byte), byte.toString(16)).toBe(channel)
      expect(addressByte(channel, { format, running }), `channel ${channel}`).toBe(byte)
      const { events } = assemble([[byte, digitByte(0, 1)], 0], [[0xbc], 1])
      expect(events[0], byte.toString(16)).toMatchObject({ packet: `ch${channel}${format ? " F" : ""}${running ? " R" : ""} 0:1` })
    }
  })

  it("reads a digit byte as position (bits 4–6) and value (low nibble XOR 0xF; raw 0 is blank)", () => {
    const table = [
      [0x0f, "0:0"],
      [0x0e, "0:1"],
      [0x06, "0:9"],
      [0x05, "0:10"],
      [0x01, "0:14"],
      [0x00, "0:b"],
      [0x7f, "7:0"],
      [0x36, "3:9"]
    ] as const
    for (const [byte, shown] of table) expect(assemble([[0xbc, byte, 0xbc], 0]).events[0], byte.toString(16)).toMatchObject({ packet: `ch1 ${shown}` })
  })
})

describe("colorado-cts framing: packets", () => {
  it.each([
    { name: "a whole packet: handed on at its eighth digit, before the next address", chunks: [[lane2Stopped, 5]], events: [{ packet: lane2Digits, at: 5, fragments: 1 }], skipped: 0 },
    { name: "bytes before the first address: skipped", chunks: [[[0x0e, 0x1f, 0x70, ...lane2Stopped], 5]], events: [{ packet: lane2Digits, at: 5, fragments: 1 }], skipped: 3 },
    {
      name: "digits placed by position, whatever their order (the clock sends 7 down to 2)",
      chunks: [[[0xbe, digitByte(7, null), digitByte(6, 3), digitByte(5, 2), digitByte(4, 0), digitByte(3, 1), digitByte(2, null), 0xbc], 1]],
      events: [{ packet: "ch0 2:b 3:1 4:0 5:2 6:3 7:b", at: 1, fragments: 1 }],
      skipped: 0
    },
    {
      name: "a short packet ends at the next address (a running lane: lane and place)",
      chunks: [[[...lanePacket(2, "21", true), 0xbc], 7]],
      events: [{ packet: "ch2 R 0:2 1:1", at: 7, fragments: 1 }],
      skipped: 0
    },
    {
      name: "a clock packet inside another, then the same address and the rest: one packet, stamped with its first fragment",
      chunks: [[interrupted(lane2Stopped, 3, tenthsPacket(4)).slice(0, 6), 10], [interrupted(lane2Stopped, 3, tenthsPacket(4)).slice(6), 20]],
      events: [{ packet: "ch0 6:4 7:b", at: 10, fragments: 1 }, { packet: lane2Digits, at: 10, fragments: 2 }],
      skipped: 0
    },
    {
      name: "interrupted right after its address byte",
      chunks: [[interrupted(lane2Stopped, 0, clockPacket("    128 ")), 3]],
      events: [{ packet: "ch0 2:b 3:b 4:1 5:2 6:8 7:b", at: 3, fragments: 1 }, { packet: lane2Digits, at: 3, fragments: 2 }],
      skipped: 0
    },
    {
      name: "interrupted twice",
      chunks: [[[...lane2Stopped.slice(0, 3), ...tenthsPacket(1), lane2Stopped[0]!, ...lane2Stopped.slice(3, 6), ...tenthsPacket(2), lane2Stopped[0]!, ...lane2Stopped.slice(6)], 4]],
      events: [{ packet: "ch0 6:1 7:b", at: 4, fragments: 1 }, { packet: "ch0 6:2 7:b", at: 4, fragments: 1 }, { packet: lane2Digits, at: 4, fragments: 3 }],
      skipped: 0
    },
    {
      name: "a clock packet after a short packet, then another channel: the short packet was whole, handed on as it was",
      chunks: [[[...lanePacket(3, "3 ", true), ...tenthsPacket(5), ...lane2Stopped], 2]],
      events: [{ packet: "ch0 6:5 7:b", at: 2, fragments: 1 }, { packet: "ch3 R 0:3 1:b", at: 2, fragments: 1 }, { packet: lane2Digits, at: 2, fragments: 1 }],
      skipped: 0
    }
  ] as const)("$name", ({ chunks, events, skipped }) => {
    const result = assemble(...chunks)
    expect(result.events).toEqual(events)
    expect(result.stats.skippedBytes).toBe(skipped)
    expect(result.stats.interrupted).toBe(events.reduce((n, e) => n + ("fragments" in e ? e.fragments - 1 : 0), 0))
  })

  it.each([
    { name: "an address with no digit before the next (not a clock interruption)", input: [0xbc, ...lane2Stopped], events: [{ malformed: 1, why: "empty" }, { packet: lane2Digits, at: 0, fragments: 1 }], skipped: 0 },
    {
      name: "an interrupted packet that never goes on, having no digit",
      input: [0xbc, ...tenthsPacket(1), ...lane2Stopped],
      events: [{ packet: "ch0 6:1 7:b", at: 0, fragments: 1 }, { malformed: 1, why: "empty" }, { packet: lane2Digits, at: 0, fragments: 1 }],
      skipped: 0
    },
    {
      name: "a position sent twice: the packet is dropped, its digits and the rest up to the next address skipped",
      input: [0xbc, digitByte(0, 1), digitByte(1, 2), digitByte(0, 1), digitByte(2, 3), ...lane2Stopped],
      events: [{ malformed: 1, why: "repeated position" }, { packet: lane2Digits, at: 0, fragments: 1 }],
      skipped: 4
    },
    {
      name: "a resumed fragment repeating a position the first one carried",
      input: [...lane2Stopped.slice(0, 4), ...tenthsPacket(1), lane2Stopped[0]!, ...lane2Stopped.slice(3)],
      events: [{ packet: "ch0 6:1 7:b", at: 0, fragments: 1 }, { malformed: 2, why: "repeated position" }],
      skipped: 4 + 5
    },
    {
      name: "a ninth digit (a module has eight)",
      input: [0xbc, ...Array.from({ length: 7 }, (_, i) => digitByte(i, 1)), digitByte(0, 1), ...lane2Stopped],
      events: [{ malformed: 1, why: "repeated position" }, { packet: lane2Digits, at: 0, fragments: 1 }],
      skipped: 8
    }
  ] as const)("malformed: $name", ({ input, events, skipped }) => {
    const result = assemble([input, 0])
    expect(result.events).toEqual(events)
    expect(result.stats.skippedBytes).toBe(skipped)
  })

  it("hands on the same packets however the bytes are cut into chunks", () => {
    const stream = bytes(
      lane2Stopped,
      interrupted(lane2Stopped, 5, clockPacket("  1 2 3 ")),
      interrupted(digitPacket(12, digitsOf(" 12    3")), 0, tenthsPacket(9)),
      lanePacket(4, "4 ", true),
      [0xbc]
    )
    const whole = assemble([Array.from(stream), 0]).events.map((e) => ("packet" in e ? e.packet : e))
    for (let seed = 1; seed <= 20; seed++) {
      const pieces = seededRandom(seed).chunks(stream, 5).map((piece, i) => [Array.from(piece), i] as const)
      expect(assemble(...pieces).events.map((e) => ("packet" in e ? e.packet : e)), `seed ${seed}`).toEqual(whole)
    }
    expect(whole).toHaveLength(6)
  })
})
