/**
 * A tennis scorer for simulated consoles (demo, tests, benchmarks): plays
 * points and shows the board as a controller would — 0/15/30/40/AD, plain
 * counts in a tie-break at 6–6, games per set.
 */
export type Player = 0 | 1

export interface TennisBoard {
  readonly points: readonly [string, string]
  readonly sets: ReadonlyArray<readonly [number, number]>
  readonly tieBreak: boolean
}

const shown = ["0", "15", "30", "40"]

export class TennisMatch {
  private points: [number, number] = [0, 0]
  private sets: Array<[number, number]> = [[0, 0]]

  get board(): TennisBoard {
    const tieBreak = this.inTieBreak()
    return { points: this.shownPoints(tieBreak), sets: this.sets.map(([h, a]) => [h, a] as const), tieBreak }
  }

  play(winner: Player): void {
    const tieBreak = this.inTieBreak()
    this.points[winner]++
    const [w, l] = [this.points[winner], this.points[1 - winner]!]
    const needed = tieBreak ? 7 : 4
    if (w >= needed && w - l >= 2) this.winGame(winner)
  }

  private winGame(winner: Player): void {
    this.points = [0, 0]
    const set = this.sets[this.sets.length - 1]!
    set[winner]++
    const [w, l] = [set[winner], set[1 - winner]!]
    if ((w >= 6 && w - l >= 2) || w === 7) this.sets.push([0, 0])
  }

  private inTieBreak(): boolean {
    const set = this.sets[this.sets.length - 1]!
    return set[0] === 6 && set[1] === 6
  }

  private shownPoints(tieBreak: boolean): [string, string] {
    const [h, a] = this.points
    if (tieBreak) return [String(h), String(a)]
    if (h >= 3 && a >= 3) return h === a ? ["40", "40"] : h > a ? ["AD", "40"] : ["40", "AD"]
    return [shown[h]!, shown[a]!]
  }
}

/** The board as a line for the generic `lines` protocol: `<clock> <home>-<away> <h>-<a> <h>-<a>…`. */
export const boardLine = (board: TennisBoard, clock: string): string =>
  `${clock} ${board.points[0]}-${board.points[1]} ${board.sets.map(([h, a]) => `${h}-${a}`).join(" ")}\n`

/** The `lines` protocol options that read `boardLine`. */
export const boardLineOptions = {
  pattern: "^(?<clock>\\d\\d:\\d\\d) (?<homePoints>\\w+)-(?<awayPoints>\\w+) (?<sets>[\\d -]+)$"
}
