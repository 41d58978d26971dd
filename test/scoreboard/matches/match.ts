/**
 * What a match model gives a test: the boards a console shows, in order. A
 * `tick` step differs from the one before only in its clock, so it must not
 * make a score entry.
 */
export interface Step<B> {
  readonly board: B
  readonly tick: boolean
}

export type Pair = readonly [number, number]

/** An entry the test expects, and the step whose write first showed it. */
export interface Expected<E> {
  readonly entry: E
  readonly step: number
}

/**
 * The entries a bridge must make for `steps`: one per run of consecutive boards
 * with the same entry, stamped by the first board of the run.
 */
export const expectedEntries = <B, E>(steps: ReadonlyArray<Step<B>>, entryOf: (board: B) => E): Array<Expected<E>> => {
  const expected: Array<Expected<E>> = []
  let last: string | undefined
  steps.forEach(({ board }, step) => {
    const entry = entryOf(board)
    const text = JSON.stringify(entry)
    if (text !== last) expected.push({ entry, step })
    last = text
  })
  return expected
}

/** Match time as `MM:SS`, or `SS.t` under a minute when `tenths` (a game clock's last minute). */
export const clockText = (seconds: number, tenths = false): string => {
  if (tenths && seconds < 60) return `${Math.floor(seconds)}.${Math.floor((seconds * 10) % 10)}`
  const whole = Math.floor(seconds)
  return `${String(Math.floor(whole / 60) % 100).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`
}
