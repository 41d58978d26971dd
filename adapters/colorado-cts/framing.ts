/**
 * The legacy scoreboard line's packets (../shared/protocols/colorado-cts.md §2): an address byte
 * (MSB set) opens a packet for one channel, digit bytes (MSB clear) follow, each naming its own
 * position. There are no markers, lengths or checksums: a packet ends at the next address byte,
 * or at its eighth digit.
 */

/** A digit value that shows nothing (raw nibble 0). */
export const blank = 15
/** A position the packet did not carry. */
export const absent = -1
/** A module has eight digits, positions 0–7 from the left. */
export const moduleDigits = 8

/** The running-clock channel's address byte (digit packet, not running): the one address that interrupts another packet. */
export const clockAddress = 0xbe

/** `1 R c c c c c f`: channel = bits 1–5 inverted. */
export const channelOf = (address: number): number => ((address >> 1) & 0x1f) ^ 0x1f

export interface Packet {
  readonly address: number
  readonly channel: number
  /** A format packet (punctuation flags), not digits to show. */
  readonly format: boolean
  /** Address bit 6: the module shows the running clock instead of its own time. */
  readonly running: boolean
  /** By position: 0–15 (15 = blank) as sent (after the XOR), `absent` where no digit came. */
  readonly digits: Int8Array
  /** Digits carried. */
  readonly count: number
  /** Receive time of the chunk that brought the first fragment's address byte. */
  readonly startedAt: number
  /** 1, or more when channel-0 packets interrupted it and its fragments were merged. */
  readonly fragments: number
}

/** Why a packet was dropped: no digit at all, or a position sent twice (which a ninth digit always is). */
export type Malformed = "empty" | "repeated position"

export interface PacketSink {
  packet(packet: Packet): void
  /** A dropped packet (its address byte): it must not count as one of a repeated pair. */
  malformed(address: number, why: Malformed): void
}

export interface FramingStats {
  skippedBytes: number
  /** Fragments merged back into the packet a channel-0 packet interrupted. */
  interrupted: number
}

interface Open {
  readonly address: number
  readonly digits: Int8Array
  count: number
  readonly startedAt: number
  fragments: number
}

const opened = (address: number, startedAt: number): Open => ({ address, digits: new Int8Array(moduleDigits).fill(absent), count: 0, startedAt, fragments: 1 })

/**
 * Assembles packets from a byte stream, each stamped with the receive time of its address byte.
 *
 * The console inserts a channel-0 (running clock) packet into another channel's packet, then sends
 * that channel's address byte again and the positions still to come. The interrupted packet is held
 * while the clock packet is read and completed with the rest: it is handed on once, whole, never in
 * two halves. If the byte after the clock packet is another address, the held packet was whole
 * already (it ended where the clock packet began) and goes on as it is.
 *
 * Bounded: a packet holds at most eight digits, one per position; bytes outside a packet (before
 * the first address, after a dropped one) are skipped and counted.
 */
export class PacketAssembler {
  readonly #stats: FramingStats
  #open: Open | undefined
  /** The packet a channel-0 packet interrupted, while that one is read. */
  #held: Open | undefined
  /** The open packet was dropped: its remaining digits are skipped up to the next address. */
  #skipping = false

  constructor(stats: FramingStats) {
    this.#stats = stats
  }

  push(chunk: Uint8Array, receivedAt: number, sink: PacketSink): void {
    for (const byte of chunk) {
      if (byte & 0x80) this.#address(byte, receivedAt, sink)
      else this.#digit(byte, sink)
    }
  }

  #address(byte: number, receivedAt: number, sink: PacketSink): void {
    const open = this.#open
    this.#skipping = false
    if (byte === clockAddress && open !== undefined && open.address !== clockAddress && this.#held === undefined) {
      // A clock packet inside another: hold the other until the clock packet ends.
      this.#held = open
      this.#open = opened(byte, receivedAt)
      return
    }
    if (open !== undefined) this.#close(open, sink)
    this.#open = undefined
    const held = this.#held
    // Only clock packets follow a held packet: any other address ends the interruption.
    if (held !== undefined && byte !== clockAddress) {
      this.#held = undefined
      if (byte === held.address) {
        // The interrupted packet goes on where it stopped.
        held.fragments++
        this.#stats.interrupted++
        this.#open = held
        return
      }
      this.#close(held, sink)
    }
    this.#open = opened(byte, receivedAt)
  }

  #digit(byte: number, sink: PacketSink): void {
    const open = this.#open
    if (open === undefined || this.#skipping) {
      this.#stats.skippedBytes++
      return
    }
    const position = (byte >> 4) & 7
    if (open.digits[position] !== absent) {
      sink.malformed(open.address, "repeated position")
      this.#stats.skippedBytes += open.count + 1
      this.#open = undefined
      this.#skipping = true
      return
    }
    open.digits[position] = (byte & 0xf) ^ 0xf
    open.count++
    // Eight digits fill the module: the packet is whole, no need to wait for the next address.
    if (open.count === moduleDigits) {
      this.#open = undefined
      this.#close(open, sink)
    }
  }

  #close(open: Open, sink: PacketSink): void {
    if (open.count === 0) {
      sink.malformed(open.address, "empty")
      return
    }
    const address = open.address
    sink.packet({
      address,
      channel: channelOf(address),
      format: (address & 1) === 1,
      running: (address & 0x40) !== 0,
      digits: open.digits,
      count: open.count,
      startedAt: open.startedAt,
      fragments: open.fragments
    })
  }
}
