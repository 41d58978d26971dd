import { type Board, blankDigits, laneChannel, laneOf, type Module, moduleAt, numberDigits } from "./console-board.ts"
import { type DigitValue, digitPacket, formatPacket } from "./encode.ts"

/**
 * One channel as the console sends it: its digit packet, then its format packet
 * (../shared/protocols/colorado-cts.md §2, §4). A running module sends only positions 0–1; its
 * format packet keeps eight flags. In blank mode everything but the clock goes blank with flag 4 on
 * every digit, except ch3, 15 and 22, which carried the time of day's minutes in d4–5 (R).
 */
export interface ChannelPackets {
  readonly digits: Array<number>
  readonly format: Array<number>
}

/** Flag 2: "this digit carries the colon/point"; 4: blanked (R). */
const point = 2
const blanked = 4

const hasTime = (digits: ReadonlyArray<DigitValue>) => digits[4] !== null || digits[5] !== null

const laneLikeFlags = (module: Module, resetFlag: boolean): Array<number> => {
  const time = hasTime(module.digits) ? point : 0
  return [resetFlag ? point : 0, 0, 0, 0, time, time, 0, 0]
}

const timeOfDayDigits = (board: Board, atMs: number): Array<DigitValue> => {
  const minutes = (board.dayStartMin + Math.floor(atMs / 60_000)) % (24 * 60)
  return [null, null, ...numberDigits(Math.floor(minutes / 60), 2), ...minuteDigits(minutes % 60), null, null]
}
const minuteDigits = (minutes: number): Array<DigitValue> => [Math.floor(minutes / 10), minutes % 10]

const flagsFor = (channel: number, board: Board, module: Module): Array<number> => {
  if (laneOf(channel) !== undefined || channel === 16) return laneLikeFlags(module, board.reset)
  if (channel === 15 || channel === 17 || channel === 18) return laneLikeFlags(module, false)
  if (channel === 22) return [0, 0, 0, 0, point, 0, 0, 0]
  return module.flags === undefined ? [0, 0, 0, 0, 0, 0, 0, 0] : [...module.flags]
}

const packets = (channel: number, module: Module, flags: ReadonlyArray<number>): ChannelPackets => ({
  digits: module.running
    ? digitPacket(channel, module.digits.slice(0, 2), { running: true })
    : digitPacket(channel, module.digits),
  format: formatPacket(channel, flags, { running: module.running })
})

/** Blank mode: lanes, event, results blank (flag 4); ch3, 15, 22 the time of day's minutes in d4–5. */
const blankModePackets = (channel: number, board: Board, atMs: number): ChannelPackets => {
  const clockChannel = board.mode === "blank" && (channel === 3 || channel === 15 || channel === 22)
  const digits = clockChannel ? [null, null, null, null, ...timeOfDayDigits(board, atMs).slice(4, 6), null, null] : blankDigits
  const flags = Array.from({ length: 8 }, (_, at) => (clockChannel && at === 4 ? blanked | point : blanked))
  return packets(channel, { running: false, digits }, flags)
}

/** The module ch17 shows: the lane it follows during a race, else its own idle `  0 0  0`. */
const shownModule = (channel: number, board: Board, atMs: number): Module => {
  if (channel === 17 && board.follow17 !== undefined) return moduleAt(board, laneChannel(board.follow17))
  if (channel === 22) return { running: false, digits: timeOfDayDigits(board, atMs) }
  return moduleAt(board, channel)
}

export const renderChannel = (channel: number, board: Board, atMs: number): ChannelPackets => {
  if (board.mode !== "normal") return blankModePackets(channel, board, atMs)
  const module = shownModule(channel, board, atMs)
  return packets(channel, module, flagsFor(channel, board, module))
}
