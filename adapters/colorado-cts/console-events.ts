import type { Board } from "./console-board.ts"

/**
 * Changes to the console's display memory in time order. A change can ask the line to send a
 * channel next (a new finish), to keep a channel out of the cycle for a while after its next send
 * (a provisional time, replaced once), or schedule a later change.
 */
export interface LineControl {
  /** Send this channel at the next packet boundary, before the cycle goes on. */
  readonly urgent: (channel: number) => void
  /** After this channel's next send, keep it out of the cycle for `forMs`, then apply `then`. */
  readonly holdAfterSend: (channel: number, forMs: number, then: Change) => void
  readonly schedule: (atMs: number, change: Change) => void
}

/** A change at stream time `atMs`. */
export type Change = (board: Board, line: LineControl, atMs: number) => void

interface Scheduled {
  readonly atMs: number
  readonly order: number
  readonly change: Change
}

/** A time-ordered queue; changes at the same time keep the order they were added in. */
export const changeQueue = () => {
  const queue: Array<Scheduled> = []
  let added = 0
  const add = (atMs: number, change: Change) => {
    const entry = { atMs, order: added++, change }
    let at = queue.length
    while (at > 0 && queue[at - 1]!.atMs > atMs) at--
    queue.splice(at, 0, entry)
  }
  /** Applies every change due by `atMs`, including ones the changes schedule for then. */
  const applyDue = (atMs: number, board: Board, line: LineControl) => {
    while (queue.length > 0 && queue[0]!.atMs <= atMs) {
      const next = queue.shift()!
      next.change(board, line, next.atMs)
    }
  }
  return { add, applyDue }
}

export type ChangeQueue = ReturnType<typeof changeQueue>
