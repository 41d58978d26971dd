import { linesTennis } from "../../scoreboard/consoles/text.ts"
import { expectedEntries } from "../../scoreboard/matches/match.ts"
import { type TennisSetBoard, tennisEntry, tennisSet } from "../../scoreboard/matches/tennis-set.ts"
import { openWriter, type PtyWriter } from "../../../scripts/support/pty.ts"

/**
 * A recorded tennis set played on the pty's writer end at a realistic pace (a point every
 * `gapMs`, each followed by a clock-only frame), remembering when each frame was written.
 *
 * A serial console does not buffer for anyone: frames shown while the daemon is dead or the
 * cable is out are gone at the source. So the streamer writes only while the test says the
 * daemon is listening (`resume()` after its "serial port connected" line, `pause()` before a
 * kill or unplug, which also closes the writer so no stale bytes queue in the pty), and the
 * match simply waits — every frame of the match is written exactly once, to a daemon that had
 * the chance to read it.
 */
export interface Written {
  readonly step: number
  readonly at: number
}

export interface MatchStreamer {
  /** The changes of the whole match: the entry and the step whose frame first shows it. */
  readonly expected: ReturnType<typeof expectedEntries<TennisSetBoard, ReturnType<typeof tennisEntry>>>
  readonly written: ReadonlyArray<Written>
  readonly done: () => boolean
  readonly resume: () => void
  readonly pause: () => void
  /** Resolves when every frame has been written. */
  readonly finished: Promise<void>
  readonly stop: () => void
}

export const streamMatch = (writerPath: string, seed: number, gapMs: number): MatchStreamer => {
  const steps = tennisSet(seed)
  const console = linesTennis()
  const expected = expectedEntries(steps, tennisEntry)
  const written: Array<Written> = []
  let writer: PtyWriter | undefined
  let next = 0
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let finish: () => void = () => undefined
  const finished = new Promise<void>((resolve) => {
    finish = resolve
  })

  const tick = () => {
    timer = undefined
    if (writer === undefined || stopped) return
    if (next >= steps.length) {
      finish()
      return
    }
    // Stamped before the write: the daemon may read the frame before writeSync returns.
    const at = Date.now()
    try {
      writer.write(console.encode(steps[next]!.board))
    } catch {
      // The cable was pulled under the writer (EIO): nothing was written, wait for resume().
      pause()
      return
    }
    written.push({ step: next, at })
    next++
    timer = setTimeout(tick, gapMs)
  }

  const pause = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    writer?.close()
    writer = undefined
  }

  return {
    expected,
    written,
    done: () => next >= steps.length,
    resume: () => {
      if (writer !== undefined || stopped) return
      writer = openWriter(writerPath)
      tick()
    },
    pause,
    finished,
    stop: () => {
      stopped = true
      pause()
      finish()
    }
  }
}
