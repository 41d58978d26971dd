import { clockPacket, type PacketLayout, statePacket } from "../../../adapters/fairplay-mp70/encode.ts"
import type { HockeyBoard } from "../matches/hockey-game.ts"
import type { FieldConsole } from "./daktronics-fields.ts"

export interface FairPlaySettings {
  /**
   * How the console lays out its packets: the variant and field places (the `options` the place is
   * configured with, unless `options` says otherwise), a longer packet, where two-digit scores sit.
   */
  readonly layout?: PacketLayout
  /** The place's options, when they are not just the layout's variant and fields. */
  readonly options?: Readonly<Record<string, unknown>>
  /** How the console shows overtime in the period byte. */
  readonly overtimeAs?: "O" | "4"
  /** ProLine: an unchanged state packet is repeated every this many steps. */
  readonly stateEvery?: number
}

/**
 * An MP-70 on its RS-232 data output. Rink layout (the default), as the real
 * console sent it (~22 packets a second): two or three C packets (clock,
 * period) per H packet (scores, penalties), the H packet repeated between
 * changes with the penalty clocks running; a new score shows first in the H
 * packet, a new period first in the C packets (the first step: H first, as
 * when the bridge starts listening mid-cycle). ProLine layout: C packets on
 * every clock update, two of them as a running clock repeats; the H packet
 * (scores, period) at once on a change and again every few updates. So one
 * step is several packets, which `playFields` delivers in one write or cut
 * (mid-packet too) across several.
 */
export const fairplayConsole = ({ layout = {}, options, overtimeAs = "O", stateEvery = 3 }: FairPlaySettings = {}): FieldConsole<HockeyBoard> => {
  let shown: { readonly score: string; readonly period: number } | undefined
  let updates = 0
  const frames = (board: HockeyBoard): Array<Uint8Array> => {
    const period = board.period === 4 && overtimeAs === "O" ? "O" : board.period
    const state = statePacket({ home: board.home, away: board.away, period, ...(board.penalties === undefined ? {} : { penalties: board.penalties }) }, layout)
    const clock = clockPacket({ clock: board.clock, period }, layout)
    const first = shown === undefined
    const score = `${board.home}-${board.away}`
    const scoreChanged = score !== shown?.score
    const periodChanged = board.period !== shown?.period
    shown = { score, period: board.period }
    updates++
    if (layout.variant === "proline") {
      if (scoreChanged || periodChanged) return [state, clock, clock]
      return updates % stateEvery === 0 ? [clock, state, clock] : [clock, clock]
    }
    // The bridge starts listening between packets: here an H packet comes before any C packet gave the period.
    if (first) return [state, clock, clock]
    if (periodChanged) return [clock, state, clock]
    if (scoreChanged) return [state, clock, clock]
    return updates % 2 === 0 ? [clock, clock, state] : [clock, clock, clock, state]
  }
  const configured = options ?? {
    ...(layout.variant === undefined ? {} : { variant: layout.variant }),
    ...(layout.fields === undefined ? {} : { fields: layout.fields })
  }
  return { protocol: "fairplay-mp70", options: configured, frames, encode: (board) => Buffer.concat(frames(board)) }
}
