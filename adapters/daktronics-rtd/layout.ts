/**
 * RTD buffer field tables (0-based offsets; the Daktronics manual counts
 * from 1). Source: ../shared/protocols/daktronics-rtd.md (the protocol notes
 * beside the project, from its root); see README.md.
 */
export interface Field {
  readonly offset: number
  readonly length: number
}

const field = (offset: number, length: number): Field => ({ offset, length })

/** `count` consecutive fields of `length` bytes starting at `offset`. */
const series = (offset: number, length: number, count: number): ReadonlyArray<Field> =>
  Array.from({ length: count }, (_, i) => field(offset + i * length, length))

/** Common to every sport. */
export const common = {
  clock: field(0, 5),
  homeScore: field(107, 4),
  awayScore: field(111, 4),
  period: field(141, 2)
} as const

export const volleyball = {
  homeServe: field(200, 1),
  awayServe: field(207, 1),
  homeSetsWon: field(214, 2),
  awaySetsWon: field(216, 2),
  homeGamePoints: series(221, 2, 9),
  homeCurrentGame: field(239, 2),
  awayGamePoints: series(241, 2, 9),
  awayCurrentGame: field(259, 2)
} as const

/** Tennis calls the sides top (home) and bottom (away). */
export const tennis = {
  homeGamePoints: common.homeScore,
  awayGamePoints: common.awayScore,
  homeServe: field(200, 1),
  awayServe: field(207, 1),
  tieBreak: field(218, 9),
  homeSetsWon: field(231, 2),
  homeSetGames: series(233, 2, 5),
  homeCurrentSet: field(243, 2),
  awaySetsWon: field(245, 2),
  awaySetGames: series(247, 2, 5),
  awayCurrentSet: field(257, 2)
} as const
