import type { ScoreEntry } from "../domain/score-entry.ts"

/** Everything but the time: two entries with the same score fingerprint are the same score. */
export const scoreFingerprint = (entry: ScoreEntry): string => {
  const { timeStamp: _time, ...score } = entry
  return JSON.stringify(score)
}

/**
 * Remembers the last entry made for one place and says whether a new one is a
 * real change. Seeded with the last persisted entry, so the first reading after
 * a restart or reconnect makes an entry only if the score moved meanwhile.
 */
export class ScoreChange {
  private last: string | undefined
  constructor(lastEntry: ScoreEntry | undefined) {
    this.last = lastEntry === undefined ? undefined : scoreFingerprint(lastEntry)
  }
  isChange(entry: ScoreEntry): boolean {
    return scoreFingerprint(entry) !== this.last
  }
  /** Called once the entry is durably in the outbox: an entry that failed to store is still a change. */
  remember(entry: ScoreEntry): void {
    this.last = scoreFingerprint(entry)
  }
}
