import type { Board } from "./console-board.ts"
import { type ClockSpan, clockSender } from "./console-clock.ts"
import type { Change, ChangeQueue, LineControl } from "./console-events.ts"
import { renderChannel } from "./console-render.ts"

/**
 * The console's transmitter (../shared/protocols/colorado-cts.md §2): bytes back to back at
 * baud/11 per second, no idle gap; channels 1…15, 1…15, 1…30 (blanked: 1…15, 17…25), each as its
 * digit packet then its format packet, sampled from display memory when the channel's turn comes;
 * a channel-0 packet on every clock tick (960/11 bytes: a tenth at 9600 baud). With interruptions
 * the tick's packet goes in right where it falls inside the current packet — at the earliest after
 * its address byte, so every one interrupts, as in two of the three recordings — and the
 * interrupted packet's address is sent again before its remaining positions. Without, it waits
 * for the packet boundary (the third recording).
 *
 * Inferred, not observed: a new finish is sent at the next channel boundary (the first stopped
 * packets came 0.3–0.5 s after their touches, closer together than the cycle would place them),
 * and a provisional time's channel sits out the cycle until it is replaced (it was sent once).
 */
export interface LineSetup {
  readonly baudRate: number
  readonly interruptions: boolean
  readonly endMs: number
  readonly spans: ReadonlyArray<ClockSpan>
  readonly board: Board
  readonly changes: ChangeQueue
  /** Bytes of the first packet the listener missed (a recording can begin inside a packet). */
  readonly missedBytes: number
}

const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i)
const normalCycle: ReadonlyArray<number> = [...range(1, 15), ...range(1, 15), ...range(1, 30)]
const blankedCycle: ReadonlyArray<number> = [...range(1, 15), ...range(17, 25)]

/** A clock tick every 960/11 ≈ 87 bytes at any speed (R: a tenth at 9600 baud), in ms. */
export const tickMs = (baudRate: number) => 960_000 / baudRate

/** Which channel goes next: an urgent one, else the cycle's next that is not held out. */
const channelPicker = (board: Board) => {
  const urgent: Array<number> = []
  const heldUntil = new Map<number, number>()
  let position = 0
  const next = (atMs: number): number => {
    const first = urgent.shift()
    if (first !== undefined) return first
    const cycle = board.mode === "normal" ? normalCycle : blankedCycle
    for (let tries = 0; tries < cycle.length; tries++) {
      const channel = cycle[position++ % cycle.length]!
      if ((heldUntil.get(channel) ?? 0) <= atMs) return channel
    }
    return cycle[position++ % cycle.length]!
  }
  const hurry = (channel: number) => {
    if (!urgent.includes(channel)) urgent.push(channel)
  }
  return { next, hurry, heldUntil }
}

export const transmit = (setup: LineSetup): Uint8Array => {
  const bytesPerMs = setup.baudRate / 11 / 1000
  const endIndex = Math.floor(setup.endMs * bytesPerMs + 1e-9)
  const out: Array<number> = []
  const timeOf = (index: number) => index / bytesPerMs
  const clock = clockTicks(setup, bytesPerMs)
  const picker = channelPicker(setup.board)
  const pendingHolds = new Map<number, { forMs: number; then: Change }>()
  const control: LineControl = {
    urgent: picker.hurry,
    holdAfterSend: (channel, forMs, then) => pendingHolds.set(channel, { forMs, then }),
    schedule: (atMs, change) => setup.changes.add(atMs, change)
  }
  const sent = (channel: number, atMs: number) => {
    const hold = pendingHolds.get(channel)
    if (hold === undefined) return
    pendingHolds.delete(channel)
    picker.heldUntil.set(channel, atMs + hold.forMs)
    setup.changes.add(atMs + hold.forMs, hold.then)
  }
  let missed = setup.missedBytes
  while (out.length < endIndex) {
    const atMs = timeOf(out.length)
    setup.changes.applyDue(atMs, setup.board, control)
    const channel = picker.next(atMs)
    const packets = renderChannel(channel, setup.board, atMs)
    sent(channel, atMs)
    sendPacket(packets.digits, missed, { out, endIndex, interruptions: setup.interruptions, clock })
    missed = 0
    sendPacket(packets.format, 0, { out, endIndex, interruptions: setup.interruptions, clock })
  }
  return Uint8Array.from(out)
}

/** The clock's ticks: which is due at a byte index, and its packet. */
const clockTicks = (setup: LineSetup, bytesPerMs: number) => {
  const send = clockSender(setup.spans)
  const period = tickMs(setup.baudRate)
  let tick = 0
  const dueIndex = (n: number) => Math.ceil(n * period * bytesPerMs - 1e-6)
  return {
    due: (index: number) => dueIndex(tick) <= index,
    /** The packet of the latest tick due by `index` (a late one shows the newest time). */
    packet: (index: number): Array<number> => {
      while (dueIndex(tick + 1) <= index) tick++
      return send(tick++ * period)
    }
  }
}

interface Sending {
  readonly out: Array<number>
  readonly endIndex: number
  readonly interruptions: boolean
  readonly clock: ReturnType<typeof clockTicks>
}

/** One packet from position `from` on (bytes before `from` were sent before the stream began). */
const sendPacket = (packet: ReadonlyArray<number>, from: number, line: Sending) => {
  const put = (byte: number) => {
    if (line.out.length < line.endIndex) line.out.push(byte)
  }
  for (let at = from; at < packet.length; at++) {
    const clockDue = line.clock.due(line.out.length)
    if (clockDue && at === 0 && !line.interruptions) for (const byte of line.clock.packet(line.out.length)) put(byte)
    if (clockDue && at > 0 && line.interruptions) {
      for (const byte of line.clock.packet(line.out.length)) put(byte)
      put(packet[0]!)
    }
    put(packet[at]!)
  }
}
