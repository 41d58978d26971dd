import { randomInt, timingSafeEqual } from "node:crypto"
import { Clock, Deferred, Duration, Effect, Semaphore, type Scope } from "effect"

/**
 * Letters and digits nobody misreads from a terminal or types wrong on a phone: no I/1/L, no O/0.
 * 31 symbols, 8 of them: about 40 bits, against at most a handful of guesses a minute.
 */
const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
const codeLength = 8

/** A code not used by then is retired and a fresh one printed: the one left on a terminal is not a way in all day. */
export const codeLifetimeMs = 10 * 60_000

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

/**
 * Why a code no longer logs in, when it was retired unused: its time ran out, the terminal asked
 * for a fresh one, or too many wrong codes came from everyone together. A used code is not kept:
 * typed again it is simply wrong.
 */
export type RetiredBecause = "expired" | "renewed" | "guessed-at"

export type CodeCheck = "right" | "wrong" | RetiredBecause

export interface SetupCodes {
  /** Prints the first code, once the addresses are printed; its lifetime starts then. */
  readonly announceFirst: Effect.Effect<void>
  /** What `typed` is: the current code (used up, the next printed for another browser), a recently retired one, or wrong. */
  readonly exchange: (typed: string) => Effect.Effect<CodeCheck>
  /** Retires the current code unused and prints a fresh one. */
  readonly retire: (because: Exclude<RetiredBecause, "expired">) => Effect.Effect<void>
}

// Enough to tell the technician why the code they just read stopped working; older ones are simply wrong.
const retiredKept = 3

/**
 * The one code that logs in now, and the line that tells the technician each new one. A fiber in
 * the caller's scope retires a code `codeLifetimeMs` after it was printed, on Effect's Clock.
 */
export const makeSetupCodes = Effect.fnUntraced(function*(announce: (code: string) => Effect.Effect<void>): Effect.fn.Return<SetupCodes, never, Scope.Scope> {
  let current = newSetupCode()
  let expiresAt = Number.POSITIVE_INFINITY
  let retired: ReadonlyArray<{ readonly code: string; readonly because: RetiredBecause }> = []
  // One change at a time: the expiry fiber and a login never both replace the code.
  const turn = yield* Semaphore.make(1)
  const announced = yield* Deferred.make<void>()
  const replace = (because: RetiredBecause | "used") =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (because !== "used") retired = [...retired, { code: current, because }].slice(-retiredKept)
      current = newSetupCode()
      expiresAt = now + codeLifetimeMs
      return announce(current)
    })
  const expireIfDue = Effect.flatMap(Clock.currentTimeMillis, (now) => now >= expiresAt ? replace("expired") : Effect.void)
  const expiry = Effect.gen(function*() {
    yield* Deferred.await(announced)
    for (;;) {
      const left = expiresAt - (yield* Clock.currentTimeMillis)
      if (left <= 0) yield* turn.withPermit(expireIfDue)
      else yield* Effect.sleep(Duration.millis(left))
    }
  })
  yield* Effect.forkScoped(expiry)
  const check = (typed: string): Effect.Effect<CodeCheck> =>
    Effect.suspend(() => {
      if (codeMatches(typed, current)) return Effect.as(replace("used"), "right" as const)
      return Effect.succeed(retired.find((old) => codeMatches(typed, old.code))?.because ?? "wrong")
    })
  return {
    announceFirst: Effect.flatMap(Clock.currentTimeMillis, (now) => {
      expiresAt = now + codeLifetimeMs
      return Effect.andThen(announce(current), Deferred.succeed(announced, undefined))
    }),
    // An expired code is retired before the check even when the fiber has not run yet at this instant.
    exchange: (typed) => turn.withPermit(Effect.andThen(expireIfDue, check(typed))),
    retire: (because) => turn.withPermit(replace(because))
  } satisfies SetupCodes
})
