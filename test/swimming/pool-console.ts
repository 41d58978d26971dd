import type { ModelStream } from "../../adapters/colorado-cts/console-model.ts"
import type { PtyWriter } from "../../scripts/support/pty.ts"
import type { SimulatedConsole } from "../scoreboard/consoles/console.ts"

/**
 * The pool's timing console on the test's end of a pty: plays the console model's stream in real
 * time, each chunk written when its last byte would have left the console (`origin + atMs`), so
 * the daemon's receive times are the console's, give or take the pty and the scheduler.
 *
 * The console never waits for anyone: while the cable is unplugged (`detach`, a daemon killed and
 * not yet back) its bytes are lost, as on a real line, and playing goes on at the stream's own
 * pace once a writer is attached again.
 */

/** For the harness's startBridge: the place reads colorado-cts with its default (swimming) layout. */
export const poolConsole: SimulatedConsole<never> = { protocol: "colorado-cts", options: {}, encode: () => "" }

export interface PoolPlayer {
  /** Wall-clock ms of stream time 0: the horn is at `origin + stream.startMs`, a touch at `origin + touchMs`. */
  readonly origin: number
  /** Resolves once the last chunk's time has passed (written or, while detached, lost). */
  readonly done: Promise<void>
  /** From now on chunks are lost until `attach`. */
  readonly detach: () => void
  readonly attach: (writer: PtyWriter) => void
  /** How late (ms) the latest chunk write was against its due time, how many were over 50 ms late; chunks written / lost. */
  readonly figures: () => { readonly maxLateMs: number; readonly over50Ms: number; readonly written: number; readonly lost: number }
}

const until = (at: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())))

/**
 * Starts playing `stream` to `writer`, `leadMs` from now (time to return to the caller before
 * the first byte). Open the writer only once the daemon has the port open (see pty-match.ts).
 */
export const playPool = (stream: ModelStream, writer: PtyWriter, leadMs = 100): PoolPlayer => {
  const origin = Date.now() + leadMs
  let current: PtyWriter | undefined = writer
  let maxLateMs = 0
  let over50Ms = 0
  let written = 0
  let lost = 0
  const play = async () => {
    for (const chunk of stream.chunks) {
      const due = origin + chunk.atMs
      if (Date.now() < due) await until(due)
      if (current === undefined) {
        lost++
        continue
      }
      current.write(chunk.bytes)
      written++
      const late = Date.now() - due
      maxLateMs = Math.max(maxLateMs, late)
      if (late > 50) over50Ms++
    }
  }
  return {
    origin,
    done: play(),
    detach: () => {
      current = undefined
    },
    attach: (next) => {
      current = next
    },
    figures: () => ({ maxLateMs, over50Ms, written, lost })
  }
}
