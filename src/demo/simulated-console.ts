import { Effect, Random, Schedule, Stream } from "effect"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { boardLine, boardLineOptions, TennisMatch } from "./tennis-match.ts"

const encoder = new TextEncoder()

/** Where the simulated console says it is plugged in, and who hears its link come up. */
export interface SimulatedLink {
  /** The place's configured port, e.g. /dev/simulated-console: the page shows it beside the badge. */
  readonly target: string
  readonly onState: (state: LinkState) => void
}

/**
 * A tennis console for the demo: a clock line every half second (which must
 * NOT make entries) and a point every `pointEveryMs`, as bytes of the generic
 * `lines` protocol, so the demo runs the real decoder and mapping. Its link is
 * reported as a serial port's is (connecting, then connected), so the status
 * page judges the demo's court by the same rules as a real one. After the last
 * point it goes on showing the final board, as a console left on does.
 */
export const simulatedTennisConsole = {
  options: boardLineOptions,
  stream: (points: number, pointEveryMs: number, link: SimulatedLink): Stream.Stream<ReceivedChunk> =>
    Stream.unwrap(Effect.sync(() => {
      link.onState({ _tag: "connecting", target: link.target })
      link.onState({ _tag: "connected", target: link.target })
      const match = new TennisMatch()
      const ticksPerPoint = Math.max(1, Math.round(pointEveryMs / 500))
      let seconds = 0
      const clock = () => {
        const s = seconds++
        return `${String(Math.floor(s / 60) % 100).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
      }
      const line = (text: string): ReceivedChunk => ({ bytes: encoder.encode(text), receivedAt: Date.now() })
      const tick = Effect.sleep(500).pipe(Effect.andThen(Effect.sync(() => line(boardLine(match.board, clock())))))
      const point = Effect.gen(function*() {
        yield* Effect.sleep(500)
        // The home player wins about 55% of points: enough for deuces and breaks.
        match.play((yield* Random.next) < 0.55 ? 0 : 1)
        return line(boardLine(match.board, clock()))
      })
      const onePoint = Stream.concat(Stream.fromEffect(tick).pipe(Stream.repeat(Schedule.recurs(ticksPerPoint - 2))), Stream.fromEffect(point))
      const played = Stream.fromEffect(tick).pipe(Stream.concat(onePoint.pipe(Stream.repeat(Schedule.recurs(points - 1)))))
      return played.pipe(Stream.concat(Stream.fromEffect(tick).pipe(Stream.forever)))
    }))
}
