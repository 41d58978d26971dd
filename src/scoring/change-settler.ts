import type { ScoreEntry } from "../domain/score-entry.ts"
import { type ScoreChange, scoreFingerprint } from "./score-change.ts"

/**
 * A burst whose score keeps changing is settled at the latest this long after
 * its first frame, so a stream of valid but ever-changing frames (a console
 * being set up, a faulty board) still produces entries instead of holding one
 * back forever.
 */
const maxHoldFactor = 10

/** How the daemon watches a held burst for holds of its own event loop (see `watch`). */
export interface LoopWatch {
  /** A look this much later than the one before means the loop was held. */
  readonly blindMs: number
  /** How long a burst is held after such a look, for the bytes that waited to be read. */
  readonly graceMs: number
}

/**
 * Turns the candidate entries of a protocol that sends partial updates into
 * entries of states the board really showed.
 *
 * A console such as the Daktronics RTD output sends one change as several
 * frames, one per changed field, back to back; a USB-serial adapter may hand
 * them over in several reads a few tens of ms apart. Applied frame by frame
 * they pass through states the board never showed (a tennis game won: points
 * 0–0 while the games still read the old count). So a change is held until no
 * frame has changed the score for `windowMs`, then the last state of the burst
 * becomes the entry, stamped with the receive time of the burst's first
 * score-changing frame: that is when the board started to show it.
 *
 * Only frames that change the candidate entry extend a burst: clock ticks do
 * not, so a running clock never delays an entry. With `windowMs` 0 (protocols
 * that send the whole state in every frame or message) every change is an
 * entry at once.
 *
 * Pure and driven by the receive times it is given, so the daemon (with a
 * timer for `deadline`) and `replay` (with recorded times) settle alike.
 */
export class ChangeSettler {
  private pending: ScoreEntry | undefined
  private pendingPrint = ""
  private firstAt = 0
  private lastChangeAt = 0
  private watchedAt = -Infinity
  private blindUntil = -Infinity
  private readonly change: ScoreChange
  private readonly maxHoldMs: number
  readonly windowMs: number

  constructor(change: ScoreChange, windowMs: number) {
    this.change = change
    this.windowMs = windowMs
    this.maxHoldMs = windowMs * maxHoldFactor
  }

  /**
   * A candidate entry from a reading (stamped with its frame's receive time).
   * Returns the entries settled by its arrival: a held burst that was already
   * due, or the candidate itself when nothing is settled by time.
   */
  offer(candidate: ScoreEntry): Array<ScoreEntry> {
    const settled = this.due(candidate.timeStamp)
    if (this.windowMs <= 0) {
      if (this.change.isChange(candidate)) settled.push(candidate)
      return settled
    }
    const print = scoreFingerprint(candidate)
    if (this.pending === undefined) {
      // A burst released just now is what the board shows, though the caller has not stored it yet.
      const released = settled.at(-1)
      const changed = released === undefined ? this.change.isChange(candidate) : print !== scoreFingerprint(released)
      if (!changed) return settled
      this.firstAt = candidate.timeStamp
    } else if (print === this.pendingPrint) {
      return settled
    }
    this.pending = candidate
    this.pendingPrint = print
    this.lastChangeAt = candidate.timeStamp
    return settled
  }

  /**
   * The daemon looked at its input at `now` (a chunk arrived, or its settle timer ran). A gap
   * since the last look longer than `blindMs` while a burst is held means its event loop was held
   * (a busy CPU, a long GC, swapping): frames that reached the serial driver or the socket meanwhile
   * are read only now, stamped late, and after the overdue settle timer. Settling on time would
   * store the board half-way through the change, so the burst is held `graceMs` more, time for the
   * waiting bytes to be read; a frame among them that changes the score extends the burst as usual.
   *
   * Frames of a new change that arrived during the hold join the burst: afterwards the two cannot
   * be told apart, and a change's own frames come back to back, far likelier to fall in a hold of
   * tens of ms than the next real change, which comes seconds later. A loop held again and again
   * still settles ten windows after the burst's first frame.
   */
  watch(now: number, { blindMs, graceMs }: LoopWatch): void {
    if (this.pending !== undefined && now - this.watchedAt > blindMs) this.blindUntil = Math.max(this.blindUntil, now + graceMs)
    this.watchedAt = Math.max(this.watchedAt, now)
  }

  /** When the held burst settles (ms), or undefined when nothing is held. */
  get deadline(): number | undefined {
    if (this.pending === undefined) return undefined
    return Math.min(Math.max(this.lastChangeAt + this.windowMs, this.blindUntil), this.firstAt + this.maxHoldMs)
  }

  /** True while a burst is held: input that fed it must not be acknowledged yet. */
  get holding(): boolean {
    return this.pending !== undefined
  }

  /** The held burst's entry if it is due at `now`. */
  due(now: number): Array<ScoreEntry> {
    const deadline = this.deadline
    return deadline !== undefined && now >= deadline ? this.release() : []
  }

  /** The held burst's entry now, due or not (end of a replay). */
  flush(): Array<ScoreEntry> {
    return this.release()
  }

  private release(): Array<ScoreEntry> {
    const last = this.pending
    this.pending = undefined
    this.blindUntil = -Infinity
    this.pendingPrint = ""
    if (last === undefined) return []
    const entry = { ...last, timeStamp: this.firstAt }
    // A burst that ended where it began (a correction undone at once) changed nothing.
    return this.change.isChange(entry) ? [entry] : []
  }
}
