/**
 * Score entries as the service's "Score entry" section defines them.
 * `timeStamp` is when the controller showed the change, in ms — never the send time.
 */
export type Pair = readonly [number, number]

export interface TennisEntry {
  readonly timeStamp: number
  readonly left: number
  readonly right: number
  readonly period: number
  readonly scoreValue: { readonly gameScores: ReadonlyArray<Pair>; readonly pointScore: Pair }
}

export interface VolleyballEntry {
  readonly timeStamp: number
  readonly scoreValue: { readonly gameScores: ReadonlyArray<Pair> }
}

export interface GenericEntry {
  readonly timeStamp: number
  readonly left: number
  readonly right: number
  readonly period: number
}

export type ScoreEntry = TennisEntry | VolleyballEntry | GenericEntry
