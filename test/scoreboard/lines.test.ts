import { afterEach, describe, it } from "vitest"
import { linesTennis } from "./consoles/text.ts"
import { resources } from "./harness.ts"
import { tennisEntry, tennisSet } from "./matches/tennis-set.ts"
import { playMatchOverPty } from "./pty-match.ts"

describe("lines over a pty: real daemon → simulator", () => {
  const res = resources()
  afterEach(() => res.release())

  // The demo's line has no tie-break flag: counts pass as counts (the model's tie-break stays below 15,
  // which a line could not tell from a game point). Sets won and the set number come from the games.
  it("a tennis set to 6–6 and a tie-break, with the clock changing between points", () =>
    playMatchOverPty(res, "tennis", linesTennis(), tennisSet(31), tennisEntry))
})
