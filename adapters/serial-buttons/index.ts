import type { ButtonEvent, Gesture } from "../../src/domain/button.ts"
import { type ButtonDecoder, type ButtonSourceDefinition, emptyButtonStats, nothingPending } from "../button-source.ts"
import { makeLineSplitter } from "../shared/line-splitter.ts"
import { compilePattern, type SerialButtonsOptions, optionsSchema } from "./options.ts"

export type { SerialButtonsOptions } from "./options.ts"

const words: Readonly<Record<string, Gesture>> = {
  single: "single",
  double: "double",
  triple: "triple",
  hold: "hold",
  long: "hold",
  release: "release"
}

/** Only bounds memory against a device inventing button names. */
const maxButtons = 1024

/** A microcontroller on USB-serial sending one line per gesture, e.g. `BTN 1 single 42`. */
export const serialButtons: ButtonSourceDefinition<SerialButtonsOptions> = {
  name: "serial-buttons",
  description: "Lines from a microcontroller (`BTN 1 single`), read with a configured pattern",
  summary: "microcontroller lines",
  link: "serial",
  example: [
    "type: serial-buttons",
    "serial:",
    "  path: /dev/serial/by-id/usb-Arduino__www.arduino.cc__0043_95037323535351803130-if00",
    "options:",
    "  pattern: '^BTN (?<button>\\w+) (?<gesture>\\w+)(?: (?<counter>\\d+))?$'"
  ].join("\n"),
  optionsSchema,
  makeDecoder(options): ButtonDecoder {
    const stats = emptyButtonStats()
    const compiled = compilePattern(options.pattern)
    if (typeof compiled === "string") throw new Error(compiled)
    const { pattern } = compiled
    // Lines too long to keep are malformed for this protocol.
    const splitter = makeLineSplitter({ maxLineBytes: options.maxLineBytes, onOverlong: () => stats.bad++ })
    const lastCounter = new Map<string, string>()

    const read = (line: string, receivedAt: number): ButtonEvent | undefined => {
      stats.messages++
      const groups = pattern.groups(line)
      const word = groups?.gesture?.toLowerCase()
      const gesture = word !== undefined && Object.hasOwn(words, word) ? words[word] : undefined
      if (groups === undefined || gesture === undefined) {
        stats.bad++
        return undefined
      }
      const button = groups.button !== undefined && groups.button.length > 0 ? groups.button : "1"
      const counter = groups.counter
      if (counter !== undefined) {
        if (lastCounter.get(button) === counter) {
          stats.duplicates++
          return undefined
        }
        if (lastCounter.size >= maxButtons) lastCounter.clear()
        lastCounter.set(button, counter)
      }
      const press = { source: options.source, button, gesture, pressedAt: receivedAt }
      // The counter outlives this process with the press's item: a line repeated after a restart is still a repeat.
      return counter === undefined ? press : { ...press, identity: { slot: `${options.source} ${button}`, identity: counter } }
    }

    return {
      ...nothingPending,
      stats,
      push(input, receivedAt) {
        const events: Array<ButtonEvent> = []
        for (const line of splitter.push(input)) {
          const event = read(line, receivedAt)
          if (event !== undefined) events.push(event)
        }
        return events
      }
    }
  }
}
