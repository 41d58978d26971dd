/**
 * Where each sport's fields sit in a 54-byte frame (offsets from the frame's
 * 0xF8), from the 452 M "Interface TV" documentation. Digits are ASCII and
 * right-aligned; 0x20 is a blank digit.
 */
export interface Digits {
  readonly at: number
  readonly width: number
}

export interface Sides<A> {
  readonly home: A
  readonly away: A
}

export interface Layout {
  /** Four clock bytes: `MMSS`, or `SSt ` under a minute. */
  readonly clock?: number
  readonly score?: Sides<Digits>
  /** Tennis game points (two characters each) and the tie-break flag byte. */
  readonly gamePoints?: Sides<number> & { readonly tieBreak: number }
  /** Current set, one digit. */
  readonly period?: number
  readonly setsWon?: Sides<number>
  /** Finished sets' tallies, two digits per side, in set order. */
  readonly setSlots?: ReadonlyArray<Sides<number>>
  /** Where the current set's tally is shown live. */
  readonly currentSet?: Sides<Digits>
  /** `1`/`2` home (1st/2nd serve), `3`/`4` away. */
  readonly serve?: number
}

const two = (at: number): Digits => ({ at, width: 2 })
const three = (at: number): Digits => ({ at, width: 3 })

const volleyballPoints: Sides<Digits> = { home: two(9), away: two(12) }

const volleyball: Layout = {
  clock: 4,
  score: volleyballPoints,
  period: 14,
  setsWon: { home: 15, away: 16 },
  setSlots: [{ home: 24, away: 26 }, { home: 28, away: 30 }, { home: 32, away: 34 }, { home: 36, away: 38 }],
  currentSet: volleyballPoints,
  serve: 50
}

const tennis: Layout = {
  gamePoints: { home: 9, away: 12, tieBreak: 52 },
  period: 14,
  setsWon: { home: 15, away: 16 },
  setSlots: [{ home: 24, away: 26 }, { home: 28, away: 30 }, { home: 37, away: 39 }, { home: 41, away: 43 }],
  currentSet: { home: two(22), away: two(35) },
  serve: 50
}

const basketball: Layout = {
  clock: 4,
  score: { home: three(8), away: three(11) }
}

export const layouts: Readonly<Record<string, Layout>> = { volleyball, tennis, basketball }

export const layoutOf = (sport: string): Layout | undefined => Object.hasOwn(layouts, sport) ? layouts[sport] : undefined
