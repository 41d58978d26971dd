import type { GamePoint } from "./reading.ts"

const shown: Readonly<Record<string, number>> = { "0": 0, "00": 0, "15": 1, "30": 2, "40": 3, "AD": 4, "A": 4 }

/**
 * Tennis game points as the service wants them: 0, 15, 30, 40, AD → 0, 1, 2, 3, 4.
 * In a tie-break the board shows plain counts, which go through unchanged
 * (the service accepts values above 4 there). Outside a tie-break a number that
 * is not a tennis point (e.g. 7) can only be a count from a board that does not
 * flag tie-breaks, so it is kept as a count too.
 */
export const servicePoint = (point: GamePoint, tieBreak: boolean): number | undefined => {
  if (typeof point === "number") {
    if (!Number.isInteger(point) || point < 0) return undefined
    if (tieBreak) return point
    return shown[String(point)] ?? point
  }
  return shown[point.trim().toUpperCase()]
}
