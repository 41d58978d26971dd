/**
 * Where each frame's fields sit in a 54-byte frame (offsets from the frame's
 * 0xF8; the vendor table's row N is byte N−1), from the 452 M "Interface TV"
 * code table. Digits are ASCII and right-aligned; 0x20 is a blank digit.
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
  /** Four clock bytes: `MMSS`, ` MSS`, or `SSt ` under a minute. */
  readonly clock?: number
  /** A byte that, when `1`, says the clock bytes show the time of day instead (volleyball byte 21). */
  readonly timeOfDay?: number
  readonly score?: Sides<Digits>
  /** Tennis game points (two characters each) and the tie-break flag byte. */
  readonly gamePoints?: Sides<Digits> & { readonly tieBreak: number }
  /** Period or current set. */
  readonly period?: Digits
  readonly setsWon?: Sides<number>
  /** Finished sets' tallies, two digits per side, in set order. */
  readonly setSlots?: ReadonlyArray<Sides<number>>
  /** Where the current set's tally is shown live. */
  readonly currentSet?: Sides<Digits>
  /** `1`/`2` home (1st/2nd serve), `3`/`4` away. */
  readonly serve?: number
  /** One digit each side. */
  readonly teamFouls?: Sides<number>
  readonly timeouts?: Sides<number>
  /** Which slots run (a flag byte per side), and each slot's clock (`MSS`, three bytes). */
  readonly penalties?: { readonly running: Sides<number>; readonly clocks: Sides<ReadonlyArray<number>> }
}

const one = (at: number): Digits => ({ at, width: 1 })
const two = (at: number): Digits => ({ at, width: 2 })
const three = (at: number): Digits => ({ at, width: 3 })

/** 0x33. Netball shares the code with 2-digit points at 9–10 / 12–13 (bytes 8 and 11 blank): the 3-digit fields read them too. */
const basketball: Layout = {
  clock: 4,
  score: { home: three(8), away: three(11) },
  period: one(14),
  teamFouls: { home: 15, away: 16 },
  timeouts: { home: 17, away: 18 }
  // 21/46/47 time-out clock, 22–45 individual fouls, 48–49 shot clock: never read.
}

/** 0x35: handball and football (table page 4), hockey and floorball (page 7) list the same bytes. */
const handballHockey: Layout = {
  clock: 4,
  score: { home: two(9), away: two(12) },
  period: one(14),
  timeouts: { home: 17, away: 18 },
  penalties: { running: { home: 15, away: 16 }, clocks: { home: [22, 25, 28], away: [35, 38, 41] } }
}

const volleyballPoints: Sides<Digits> = { home: two(9), away: two(12) }

/** 0x36. */
const volleyball: Layout = {
  clock: 4,
  timeOfDay: 21,
  score: volleyballPoints,
  period: one(14),
  setsWon: { home: 15, away: 16 },
  timeouts: { home: 17, away: 18 },
  setSlots: [{ home: 24, away: 26 }, { home: 28, away: 30 }, { home: 32, away: 34 }, { home: 36, away: 38 }],
  currentSet: volleyballPoints,
  serve: 50
}

/** 0x39: no match clock. */
const tennis: Layout = {
  gamePoints: { home: two(9), away: two(12), tieBreak: 52 },
  period: one(14),
  setsWon: { home: 15, away: 16 },
  setSlots: [{ home: 24, away: 26 }, { home: 28, away: 30 }, { home: 37, away: 39 }, { home: 41, away: 43 }],
  currentSet: { home: two(22), away: two(35) },
  serve: 50
}

/** The frame layouts, by the name `sportCodes` and the encoder use for them. */
export const layouts = { basketball, handball: handballHockey, volleyball, tennis } as const satisfies Record<string, Layout>

export type LayoutName = keyof typeof layouts

/**
 * Which frame each sport (API sport codes) is read from. One code serves several
 * sports and the frame does not say which: the place's sport decides. Stramatel's
 * "football" is association football: API `soccer` (and `futsal`); API `football`
 * (American) consoles send another frame (452 FRC-US, not read).
 */
export const sportLayouts: Readonly<Record<string, LayoutName>> = {
  basketball: "basketball",
  handball: "handball",
  soccer: "handball",
  futsal: "handball",
  hockey: "handball",
  unihockey: "handball",
  volleyball: "volleyball",
  tennis: "tennis"
}

export const layoutNameOf = (sport: string): LayoutName | undefined =>
  Object.hasOwn(sportLayouts, sport) ? sportLayouts[sport] : undefined

export const layoutOf = (sport: string): Layout | undefined => {
  const name = layoutNameOf(sport)
  return name === undefined ? undefined : layouts[name]
}
