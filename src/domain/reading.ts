/**
 * What a scoreboard shows, normalised across controller protocols.
 * Decoders produce it; sport mapping turns it into a score entry.
 * Every field is optional because controllers send partial updates and
 * some protocols never carry a given field.
 */
import type { RaceBoard } from "./race.ts"

export type Side = "home" | "away"

/** Tennis game points as the controller shows them: "0" "15" "30" "40" "AD", or a plain count in a tie-break. */
export type GamePoint = "0" | "15" | "30" | "40" | "AD" | number

/** A running penalty: the player's number when the console sends one, and the time left as shown ("1:00", "0:45"). */
export interface Penalty {
  readonly player?: number
  readonly remaining: string
}

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
  /**
   * What a board shows beside the score, for overlay templates and the status page; never part of
   * a score change. Present only when the console sends it (an empty list: no penalty running).
   */
  readonly penalties?: { readonly home: ReadonlyArray<Penalty>; readonly away: ReadonlyArray<Penalty> }
  /** Team fouls, home and away. */
  readonly teamFouls?: readonly [number, number]
  /** Time-outs taken, home and away. */
  readonly timeouts?: readonly [number, number]
  /** A timing console's race (swimming): clock, event and heat, lanes. Never part of a score change. */
  readonly race?: RaceBoard
  /**
   * What the board shows that the bridge does not read as a score (a console whose score channels
   * are not configured), labelled for the status page; never part of a score change.
   */
  readonly shown?: ReadonlyArray<{ readonly label: string; readonly text: string }>
}
