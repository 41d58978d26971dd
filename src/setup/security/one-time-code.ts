import { randomInt, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"

/**
 * Letters and digits nobody misreads from a terminal or types wrong on a phone: no I/1/L, no O/0.
 * 31 symbols, 8 of them: about 40 bits, against at most a handful of guesses a minute.
 */
const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
const codeLength = 8

/** A fresh one-time code, `ABCD-EFGH`, from the system's cryptographic random source. */
export const newSetupCode = (): string => {
  let code = ""
  for (let i = 0; i < codeLength; i++) code += alphabet[randomInt(alphabet.length)]
  return `${code.slice(0, 4)}-${code.slice(4)}`
}

// What the technician typed, as the code is compared: case, spaces and the dash do not matter.
const normalised = (text: string): Buffer => Buffer.from(text.toUpperCase().replace(/[^A-Z0-9]/gu, ""), "utf8")

/** Whether `typed` is `code`; compared in constant time so the answer's timing says nothing about how close a guess was. */
export const codeMatches = (typed: string, code: string): boolean => {
  const given = normalised(typed)
  const expected = normalised(code)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export interface SetupCodes {
  /** Prints the first code: once the addresses are printed. */
  readonly announceFirst: Effect.Effect<void>
  /** Whether `typed` is the current code; a right one is used up and the next is printed for another browser. */
  readonly exchange: (typed: string) => Effect.Effect<boolean>
}

/** The one code that logs in now, and the line that tells the technician each new one. */
export const makeSetupCodes = (announce: (code: string) => Effect.Effect<void>): Effect.Effect<SetupCodes> =>
  Effect.sync(() => {
    let current = newSetupCode()
    return {
      announceFirst: Effect.suspend(() => announce(current)),
      exchange: (typed) =>
        Effect.suspend(() => {
          if (!codeMatches(typed, current)) return Effect.succeed(false)
          current = newSetupCode()
          return Effect.as(announce(current), true)
        })
    }
  })
