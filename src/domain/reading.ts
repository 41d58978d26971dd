/**
 * What a scoreboard shows, normalised across controller protocols.
 * Decoders produce it; sport mapping turns it into a score entry.
 * Every field is optional because controllers send partial updates and
 * some protocols never carry a given field.
 */
export type Side = "home" | "away"

/** Tennis game points as the controller shows them: "0" "15" "30" "40" "AD", or a plain count in a tie-break. */
export type GamePoint = "0" | "15" | "30" | "40" | "AD" | number

export interface Reading {
  /** Receive time of the frame (ms since epoch) that carried this state. */
  readonly receivedAt: number
  /** Main score: points (basketball, volleyball live points), or tennis game points when `gamePoints` is absent. */
  readonly home?: number
  readonly away?: number
  /** Period / quarter / half / current set / inning. */
  readonly period?: number
  /** Per set, in order: games (tennis) or points (volleyball) of home and away. */
  readonly sets?: ReadonlyArray<readonly [number, number]>
  /** Sets won by home and away. */
  readonly setsWon?: readonly [number, number]
  /** Tennis: points of the current game. */
  readonly gamePoints?: readonly [GamePoint, GamePoint]
  readonly tieBreak?: boolean
  readonly serve?: Side
  /** Clock as shown ("12:34", "45.6"); never part of a score change. */
  readonly clock?: string
}
