import { clockPacket, type PacketLayout, statePacket } from "../../../adapters/fairplay-mp70/encode.ts"
import type { HockeyBoard } from "../matches/hockey-game.ts"
import type { FieldConsole } from "./daktronics-fields.ts"

export interface FairPlaySettings {
  /** Where the console puts its fields, and the `options` the place is configured with to match. */
  readonly layout?: PacketLayout
  readonly options?: Readonly<Record<string, unknown>>
  /** How the console shows overtime in the period byte. */
  readonly overtimeAs?: "O" | "4"
  /** An unchanged state packet is repeated every this many steps. */
  readonly stateEvery?: number
}

/**
 * An MP-70 on its ProLine output: clock (C) packets on every clock update,
 * two of them as a running clock repeats; a state (H) packet at once when the
 * score or period changes, ahead of the clock, and again every few updates
 * with nothing changed. So one step is several packets, which `playFields`
 * delivers in one write or cut (mid-packet too) across several.
 */
export const fairplayConsole = ({ layout = {}, options = {}, overtimeAs = "O", stateEvery = 3 }: FairPlaySettings = {}): FieldConsole<HockeyBoard> => {
  let shown: string | undefined
  let updates = 0
  const frames = (board: HockeyBoard): Array<Uint8Array> => {
    const state = statePacket({ home: board.home, away: board.away, period: board.period === 4 ? overtimeAs === "O" ? "O" : 4 : board.period }, layout)
    const clock = clockPacket(board.clock, layout)
    const key = `${board.home}-${board.away}-${board.period}`
    const changed = key !== shown
    shown = key
    updates++
    if (changed) return [state, clock, clock]
    return updates % stateEvery === 0 ? [clock, state, clock] : [clock, clock]
  }
  return { protocol: "fairplay-mp70", options, frames, encode: (board) => Buffer.concat(frames(board)) }
}
