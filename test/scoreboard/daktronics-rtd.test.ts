import { afterEach, describe, it } from "vitest"
import { daktronicsBasketball, daktronicsTennis, daktronicsVolleyball } from "./consoles/daktronics.ts"
import { resources } from "./harness.ts"
import { basketballEntry, basketballQuarter } from "./matches/basketball-quarter.ts"
import { tennisEntry, tennisSet } from "./matches/tennis-set.ts"
import { volleyballEntry, volleyballMatch } from "./matches/volleyball-match.ts"
import { playMatchOverPty } from "./pty-match.ts"

// Partial-update frames: only the changed range of the RTD buffer, clock ticks included.
describe("daktronics-rtd over a pty: real daemon → simulator", () => {
  const res = resources()
  afterEach(() => res.release())

  it("a basketball quarter: every basket once, clock ticks make no entry", () =>
    playMatchOverPty(res, "basketball", daktronicsBasketball(), basketballQuarter(11), (b) => basketballEntry(b)))

  it("a five-set volleyball match", () =>
    playMatchOverPty(res, "volleyball", daktronicsVolleyball(), volleyballMatch(12), volleyballEntry))

  it("a tennis set to 6–6 and a tie-break", () =>
    playMatchOverPty(res, "tennis", daktronicsTennis(), tennisSet(13), tennisEntry))
})
