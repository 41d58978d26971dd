import { afterEach, describe, it } from "vitest"
import { stramatelBasketball, stramatelTennis, stramatelVolleyball } from "./consoles/stramatel.ts"
import { resources } from "./harness.ts"
import { basketballEntry, basketballQuarter } from "./matches/basketball-quarter.ts"
import { tennisEntry, tennisSet } from "./matches/tennis-set.ts"
import { volleyballEntry, volleyballMatch } from "./matches/volleyball-match.ts"
import { playMatchOverPty } from "./pty-match.ts"

// Whole-state frames: a clock-only board is a new frame with the same score, or a plain repeat (tennis has no clock).
describe("stramatel-452m over a pty: real daemon → simulator", () => {
  const res = resources()
  afterEach(() => res.release())

  // The 452 M basketball frame carries no period: the generic entry says 0 ("not sent").
  it("a basketball quarter: every basket once, clock ticks make no entry", () =>
    playMatchOverPty(res, "basketball", stramatelBasketball(), basketballQuarter(21), (b) => basketballEntry(b, { period: false })))

  it("a five-set volleyball match (the fifth set has no slot: live tally only)", () =>
    playMatchOverPty(res, "volleyball", stramatelVolleyball(), volleyballMatch(22), volleyballEntry))

  it("a tennis set to 6–6 and a tie-break (byte 52 flags it)", () =>
    playMatchOverPty(res, "tennis", stramatelTennis(), tennisSet(23), tennisEntry))
})
