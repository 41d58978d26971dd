import type { GamePoint, Side } from "../../src/domain/reading.ts"
import type { RtdBuffer } from "./buffer.ts"
import type { Field } from "./layout.ts"

const DIGITS = /^[0-9]+$/
const TENNIS_POINTS = new Set(["0", "15", "30", "40"])

/**
 * Reads typed values out of the RTD buffer. Text that is not what the field
 * should hold is never turned into a number: the value is left out and the
 * reader remembers it saw garbage (usually a wrong `sport` setting).
 */
export class FieldReader {
  readonly #buffer: RtdBuffer
  #garbled = false

  constructor(buffer: RtdBuffer) {
    this.#buffer = buffer
  }

  get garbled(): boolean {
    return this.#garbled
  }

  text(field: Field): string {
    return this.#buffer.text(field.offset, field.length).trim()
  }

  /** Right-justified digits; blank is absent. */
  number(field: Field): number | undefined {
    const text = this.text(field)
    if (text === "") return undefined
    if (DIGITS.test(text)) return Number(text)
    this.#garbled = true
    return undefined
  }

  /**
   * Tennis game points. Blank is "0": the console blanks the points at the
   * start of a game, and only fields already written reach this reader.
   * In a tie-break every count is a plain number.
   */
  gamePoint(field: Field, tieBreak: boolean): GamePoint | undefined {
    const text = this.text(field).toUpperCase()
    if (text === "AD" || text === "A") return "AD"
    const value = text === "" ? "0" : text
    if (!DIGITS.test(value)) {
      this.#garbled = true
      return undefined
    }
    if (!tieBreak && TENNIS_POINTS.has(value)) return value as GamePoint
    return Number(value)
  }

  /** The side whose serve indicator is lit, when exactly one is. */
  serve(home: Field, away: Field): Side | undefined {
    const homeLit = this.text(home) !== ""
    const awayLit = this.text(away) !== ""
    if (homeLit === awayLit) return undefined
    return homeLit ? "home" : "away"
  }
}
