import type { DigitValue } from "./encode.ts"

/**
 * What the console's display memory holds (../shared/protocols/colorado-cts.md §4): one module of
 * eight digits per channel, whether it shows the running clock, and the board-wide states (reset,
 * blank modes). The line (console-line.ts) renders it into packets; races (console-race.ts) change it.
 */

/** One module: its eight digits as the console keeps them, and the running bit. */
export interface Module {
  readonly running: boolean
  readonly digits: ReadonlyArray<DigitValue>
  /** Format flags when the channel's content sets them (the lane-pair channels' points). */
  readonly flags?: ReadonlyArray<number>
}

/** normal; `blank`: Scoreboard → Blank; `total`: Blank pressed twice. */
export type BoardMode = "normal" | "blank" | "total"

export interface Board {
  readonly modules: Array<Module>
  /** The console's reset state: clock at "0.0", the digit-0 flag on the lane channels. */
  reset: boolean
  mode: BoardMode
  /** The lane ch17 follows during a race (R: "followed one lane"). */
  follow17: number | undefined
  /** Lengths completed per lane in this race (ch11 shows the leader's). */
  readonly lengths: Map<number, number>
  /** ch15 ("latest finish") is free to show the next queued finish from this time. */
  ch15FreeAt: number
  /** Time of day at stream start, minutes after midnight (ch22). */
  readonly dayStartMin: number
}

/** The 12 lanes' channels: lanes 1–10 on ch1–10, lanes 11 and 12 on ch23 and ch24. */
export const laneChannel = (lane: number): number => (lane <= 10 ? lane : lane + 12)
export const lanes: ReadonlyArray<number> = Array.from({ length: 12 }, (_, i) => i + 1)
export const laneOf = (channel: number): number | undefined =>
  channel >= 1 && channel <= 10 ? channel : channel === 23 || channel === 24 ? channel - 12 : undefined

export const blankDigits: ReadonlyArray<DigitValue> = Array.from({ length: 8 }, () => null)
export const blankModule: Module = { running: false, digits: blankDigits }

/** Text as a module shows it ("  0 0  0"), space = blank. */
export const textDigits = (text: string): Array<DigitValue> =>
  Array.from(text.padStart(8, " ").slice(-8), (c) => (c === " " ? null : Number.parseInt(c, 10)))

/** `value` right-aligned in `width` digits, leading zeros blank (0 shows as "0"). */
export const numberDigits = (value: number, width: number): Array<DigitValue> => {
  const text = String(value % 10 ** width).padStart(width, " ")
  return Array.from(text, (c) => (c === " " ? null : Number.parseInt(c, 10)))
}

const hundredthsOf = (ms: number): number => Math.floor(ms / 10 + 1e-9)

/** A lane's time in d2–7: minutes (blank when 0), seconds (leading zero blank without minutes), hundredths. */
export const laneTimeDigits = (ms: number): Array<DigitValue> => {
  const h = hundredthsOf(ms)
  const minutes = Math.floor(h / 6000) % 100
  const seconds = Math.floor(h / 100) % 60
  const secondDigits = minutes === 0 ? numberDigits(seconds, 2) : [Math.floor(seconds / 10), seconds % 10]
  return [...(minutes === 0 ? [null, null] : numberDigits(minutes, 2)), ...secondDigits, Math.floor((h % 100) / 10), h % 10]
}

/** A lane's module: lane digit (10–12 as raw values, W's table), place, time. */
export const laneDigits = (lane: number, place: number | null, timeMs: number | null): Array<DigitValue> => [
  lane,
  place,
  ...(timeMs === null ? blankDigits.slice(2) : laneTimeDigits(timeMs))
]

/** The time as the board shows it and the domain writes it: "28.91", "1:02.34". */
export const timeText = (ms: number): string => {
  const h = hundredthsOf(ms)
  const minutes = Math.floor(h / 6000)
  const rest = `${Math.floor(h / 100) % 60}.${String(h % 100).padStart(2, "0")}`
  return minutes === 0 ? rest : `${minutes}:${rest.padStart(5, "0")}`
}

/**
 * Half a lane-pair channel (ch25–30): `SS.hh` (a point flag on its second digit), or `M:SS.t` from a
 * minute on (an extra flag on its third digit, R).
 */
export const pairHalf = (ms: number | undefined): { digits: Array<DigitValue>; flags: Array<number> } => {
  if (ms === undefined) return { digits: [null, null, null, null], flags: [0, 0, 0, 0] }
  const h = hundredthsOf(ms)
  const minutes = Math.floor(h / 6000)
  const seconds = Math.floor(h / 100) % 60
  if (minutes === 0) return { digits: [...numberDigits(seconds, 2), Math.floor((h % 100) / 10), h % 10], flags: [0, 2, 0, 0] }
  return { digits: [minutes % 10, Math.floor(seconds / 10), seconds % 10, Math.floor((h % 100) / 10)], flags: [0, 2, 2, 0] }
}

export const newBoard = (dayStartMin: number): Board => {
  const modules = Array.from({ length: 32 }, () => blankModule)
  modules[13] = { running: false, digits: textDigits("  0 0  0") }
  modules[17] = { running: false, digits: textDigits("  0 0  0") }
  modules[19] = { running: false, digits: textDigits(" 0 0 0 0") }
  modules[21] = { running: false, digits: textDigits("   0   0") }
  return { modules, reset: true, mode: "normal", follow17: undefined, lengths: new Map(), ch15FreeAt: 0, dayStartMin }
}

export const setModule = (board: Board, channel: number, module: Module): void => {
  board.modules[channel] = module
}

export const moduleAt = (board: Board, channel: number): Module => board.modules[channel] ?? blankModule
