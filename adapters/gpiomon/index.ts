import { Schema } from "effect"
import { makeLocalClock } from "../../src/buttons/edge-time.ts"
import { gestureOptionsSchema, makeGestureDetector } from "../../src/buttons/gestures.ts"
import type { ButtonEvent } from "../../src/domain/button.ts"
import { type ButtonDecoder, type ButtonSourceDefinition, emptyButtonStats } from "../button-source.ts"
import { makeLineSplitter } from "../shared/line-splitter.ts"
import { type GpioEdge, isBanner, parseGpiomonLine } from "./line-format.ts"

export const optionsSchema = Schema.Struct({
  activeLow: Schema.optionalKey(Schema.Boolean.annotate({
    description: "The button pulls the line low (pull-up wiring): the falling edge is the press. Do not also pass -l to gpiomon."
  })),
  gestures: Schema.optionalKey(gestureOptionsSchema)
})
export type GpiomonOptions = typeof optionsSchema.Type

/**
 * Edges printed by `gpiomon` run as a child process (libgpiod v1 or v2, see
 * line-format.ts), through the gesture detector; the button id is the line
 * offset. gpiomon's timestamps are CLOCK_MONOTONIC unless v2 is run with
 * `-E realtime`; monotonic times are put on the wall clock by an offset learnt
 * from receive times (edge-time.ts). libgpiod v1 must be run with `-b`, or
 * its piped output is block-buffered and edges arrive late and in bursts.
 */
export const gpiomon: ButtonSourceDefinition<GpiomonOptions> = {
  name: "gpiomon",
  description: "GPIO edges from gpiomon (libgpiod v1 or v2 output) through the gesture detector",
  summary: "GPIO",
  link: "gpio",
  example: "type: gpiomon\ngpio:\n  chip: gpiochip0\n  lines: [17, 27]\noptions:\n  activeLow: true",
  optionsSchema,
  makeDecoder(options): ButtonDecoder {
    const stats = emptyButtonStats()
    const detector = makeGestureDetector({ ...options.gestures, source: options.source })
    const splitter = makeLineSplitter({ maxLineBytes: 512, onOverlong: () => stats.bad++ })
    const pressIsRising = options.activeLow !== true
    const wallClock = makeLocalClock()
    return {
      stats,
      flush: (now) => detector.flush(now),
      nextDeadline: () => detector.nextDeadline(),
      push(input, receivedAt) {
        const edges: Array<GpioEdge> = []
        for (const line of splitter.push(input)) {
          stats.messages++
          const edge = parseGpiomonLine(line)
          if (edge !== undefined) edges.push(edge)
          else if (isBanner(line)) stats.ignored++
          else stats.bad++
        }
        const times = wallClock(edges.map((edge) => edge.at), receivedAt)
        const events: Array<ButtonEvent> = []
        edges.forEach((edge, i) => {
          const press = edge.rising === pressIsRising
          events.push(...detector.edge(edge.line, press ? "press" : "release", times[i]!))
        })
        return events
      }
    }
  }
}
