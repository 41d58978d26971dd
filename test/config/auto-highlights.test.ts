import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { protocols } from "../../adapters/registry.ts"
import { apiSports } from "../../adapters/shared/api-sports.ts"
import { parseAutoRules } from "../../src/config/auto-highlights.ts"
import { checkConfig } from "../../src/config/check.ts"
import { parseConfig } from "../../src/config/load.ts"
import { rulesFor } from "../../src/config/rule-fit.ts"
import { autoRuleNames, defaultRuleWindow, ruleFamilies, ruleFamily } from "../../src/domain/rule-catalog.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

process.env["SCOREBRIDGE_TOKEN"] = "auto-test-token"

const place = (sport: string, lines: ReadonlyArray<string>) => `
service:
  baseUrl: https://api.example.com
  token: { env: SCOREBRIDGE_TOKEN }
places:
  - key: gym
    sport: ${sport}
    scoreboard:
      protocol: lines
      serial: { path: /dev/ttyUSB0 }
      options: { delimiter: ",", fields: [home, away, period] }
${lines.map((line) => `    ${line}`).join("\n")}
`

describe("autoHighlights decoding", () => {
  it.effect("keeps each rule as written: windows and match format stay unset for the detector's sport defaults; presses merge within 5 s", () =>
    Effect.gen(function*() {
      const { config } = yield* parseConfig(place("basketball", ["autoHighlights: [{ rule: score }, { rule: tie, team: away }]"]), "gym.yaml", protocols)
      const gym = config.places[0]!
      assert.deepStrictEqual(gym.autoHighlights, [{ rule: "score" }, { rule: "tie", team: "away" }])
      assert.strictEqual(gym.clicks.mergeSeconds, 5)
    }))

  it.effect("keeps every option given", () =>
    Effect.gen(function*() {
      const { config } = yield* parseConfig(place("volleyball", [
        "clicks: { mergeSeconds: 0 }",
        "autoHighlights:",
        "  - { rule: set-won, team: home, beforeSeconds: 30, afterSeconds: 12.5, bestOf: 3, pointsPerSet: 21, decidingSetPoints: 15 }",
        "  - { rule: score, atLeast: 1 }"
      ]), "hall.yaml", protocols)
      const hall = config.places[0]!
      assert.deepStrictEqual(hall.autoHighlights, [
        { rule: "set-won", team: "home", beforeSeconds: 30, afterSeconds: 12.5, bestOf: 3, pointsPerSet: 21, decidingSetPoints: 15 },
        { rule: "score", atLeast: 1 }
      ])
      assert.strictEqual(hall.clicks.mergeSeconds, 0)
    }))

  it.effect("allows one rule for each team and for either team, and a place without rules", () =>
    Effect.gen(function*() {
      const { config } = yield* parseConfig(place("tennis", ["autoHighlights: [{ rule: break }, { rule: break, team: home }, { rule: break, team: away }]"]), "court.yaml", protocols)
      assert.lengthOf(config.places[0]!.autoHighlights!, 3)
      const bare = yield* parseConfig(place("tennis", []), "bare.yaml", protocols)
      assert.isUndefined(bare.config.places[0]!.autoHighlights)
    }))
})

describe("scorebridge check", () => {
  const dir = tempDir("auto")
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.effect("prints each rule in words: meaning, team, window and whose it is, match format, and the merge window", () =>
    Effect.gen(function*() {
      const file = join(dir, "court.yaml")
      writeFileSync(file, place("tennis", [
        "clicks: { mergeSeconds: 8 }",
        "autoHighlights:",
        "  - { rule: break, team: home }",
        "  - { rule: set-won, beforeSeconds: 30, afterSeconds: 20, gamesPerSet: 4 }",
        "  - { rule: period-end }"
      ]))
      const result = yield* checkConfig(file)
      assert.isTrue(result.ok, result.ok ? "" : result.report)
      const lines = result.ok ? result.summary.split("\n") : []
      const at = lines.findIndex((line) => line.startsWith("  place gym: tennis"))
      assert.deepStrictEqual(lines.slice(at + 1, at + 5), [
        "    auto-highlights (held 8 s before sending; a press within 8 s replaces one):",
        "      break — a game was won by the receiver (needs a board that shows who serves); home only; 25 s before to 8 s after (tennis default)",
        "      set-won — a set was won; either team; 30 s before to 20 s after (its own); best of 3 (default); 4 games a set",
        "      period-end — a period ended: the clock reached zero (or, on boards without a clock, the period number went up); in set sports a set ended; about no team; 25 s before to 15 s after (tennis default)"
      ])
    }))

  it.effect("names atLeast, the volleyball format and a merge window of 0", () =>
    Effect.gen(function*() {
      const gym = join(dir, "gym.yaml")
      writeFileSync(gym, place("basketball", ["clicks: { mergeSeconds: 0 }", "autoHighlights: [{ rule: score, atLeast: 3, team: away }]"]))
      const basketball = yield* checkConfig(gym)
      assert.include(basketball.ok ? basketball.summary : "", [
        "    auto-highlights (sent at once, never merged with a press):",
        "      score atLeast 3 — a team's score went up (atLeast: N for a jump of N or more, e.g. a three-pointer); away only; 12 s before to 4 s after (basketball default)"
      ].join("\n"))
      const beach = join(dir, "beach.yaml")
      writeFileSync(beach, place("beachvolleyball", ["autoHighlights: [{ rule: match-point, bestOf: 1 }]"]))
      const volleyball = yield* checkConfig(beach)
      assert.include(
        volleyball.ok ? volleyball.summary : "",
        "      match-point — a team can win the match with the next point; either team; 15 s before to 5 s after (beachvolleyball default); best of 1; 21 points a set (default); 15 in the deciding set (default)"
      )
    }))

  it.effect("names the finish rule's places, its window for a touch, and that finishes are never held or merged", () =>
    Effect.gen(function*() {
      const pool = join(dir, "pool.yaml")
      writeFileSync(pool, place("swimming", ["autoHighlights: [{ rule: finish, places: 3 }]"]))
      const podium = yield* checkConfig(pool)
      assert.include(podium.ok ? podium.summary : "", [
        "    auto-highlights (finishes sent at once, never merged with a press):",
        "      finish — a swimmer touched the wall: one click per finish, stamped at the touch (the race's start plus the finish time), with lane, place and time; "
          + "about no team; 10 s before to 6 s after (swimming default); the first 3 places"
      ].join("\n"))
      writeFileSync(pool, place("swimming", ["autoHighlights: [{ rule: finish, winner: true, beforeSeconds: 8, afterSeconds: 4 }, { rule: score }]"]))
      const meet = yield* checkConfig(pool)
      const summary = meet.ok ? meet.summary : ""
      assert.include(summary, "    auto-highlights (held 5 s before sending; a press within 5 s replaces one; finishes sent at once, never merged):")
      assert.include(summary, "about no team; 8 s before to 4 s after (its own); the winner only")
      // A dual meet's team score: judged as a generic sport's, with its default window.
      assert.include(summary, "      score — a team's score went up (atLeast: N for a jump of N or more, e.g. a three-pointer); either team; 15 s before to 5 s after (swimming default)")
    }))

  it.effect("says nothing of auto-highlights for a place without rules", () =>
    Effect.gen(function*() {
      const file = join(dir, "bare.yaml")
      writeFileSync(file, place("tennis", []))
      const result = yield* checkConfig(file)
      assert.notInclude(result.ok ? result.summary : "", "auto-highlights")
    }))
})

describe("parseAutoRules (replay --auto-highlights)", () => {
  it("decodes a JSON list of rules as the config does", () => {
    assert.deepStrictEqual(
      parseAutoRules(`[{"rule":"score","atLeast":3},{"rule":"period-end","beforeSeconds":20,"afterSeconds":5}]`, "basketball"),
      Result.succeed([{ rule: "score", atLeast: 3 }, { rule: "period-end", beforeSeconds: 20, afterSeconds: 5 }])
    )
    assert.deepStrictEqual(parseAutoRules("[]", "tennis"), Result.succeed([]))
  })

  const failure = (json: string, sport: string): string => {
    const result = parseAutoRules(json, sport)
    assert.isTrue(Result.isFailure(result), JSON.stringify(result))
    const message = Result.isFailure(result) ? result.failure : ""
    assert.notInclude(message, "\n")
    return message
  }

  it("checks each rule against the sport, on one line", () => {
    assert.strictEqual(
      failure(`[{"rule":"score"},{"rule":"game-won"},{"rule":"lead-change","atLeast":2}]`, "basketball"),
      "auto-highlight rules: [2].atLeast: only for rule: score (the smallest jump that counts); lead-change takes no atLeast — leave it out"
    )
    assert.strictEqual(
      failure(`[{"rule":"score"},{"rule":"game-won"},{"rule":"tie","team":"home"}]`, "basketball"),
      "auto-highlight rules: [1].rule: game-won does not fit basketball: rules for basketball are score, lead-change, tie, period-end"
    )
    assert.strictEqual(
      failure(`[{"rule":"score","atLeast":2},{"rule":"set-won","pointsPerSet":25}]`, "padel"),
      "auto-highlight rules: [0].atLeast: a jump of 2 never happens in padel: its score goes up one point at a time — leave atLeast out; "
        + "[1].pointsPerSet: is for volleyball and beach volleyball; in padel its sets are counted in games (gamesPerSet)"
    )
  })

  it("names unknown rules and keys, duplicates and half windows", () => {
    assert.include(failure(`[{"rule":"goal"}]`, "soccer"), `[0].rule: expected one of "score", "lead-change"`)
    assert.include(failure(`[{"rule":"score","windowSeconds":10}]`, "soccer"), `[0].windowSeconds: unknown key "windowSeconds"`)
    assert.strictEqual(
      failure(`[{"rule":"tie"},{"rule":"tie"}]`, "soccer"),
      "auto-highlight rules: [1].rule: tie for either team is listed twice (also [0]): keep one entry per rule and team"
    )
    assert.include(failure(`[{"rule":"tie","beforeSeconds":10}]`, "soccer"), "[0].beforeSeconds: give beforeSeconds and afterSeconds together")
  })

  it("says what it expected when the text is not a JSON list or the sport is unknown", () => {
    assert.match(failure(`[{"rule":"score"`, "soccer"), /^auto-highlight rules are not JSON \(.+\); give a list such as \[\{"rule":"score"\}\]$/u)
    assert.strictEqual(failure(`{"rule":"score"}`, "soccer"), "auto-highlight rules: expected a list, got a mapping")
    assert.match(failure("[]", "footbal"), /^unknown sport "footbal" \(sports: ballhockey, baseball, .*waterpolo, wrestling\)$/u)
  })

  it("takes the finish rule in swimming only, with places or winner, and a dual meet's jumps", () => {
    assert.deepStrictEqual(
      parseAutoRules(`[{"rule":"finish","places":3},{"rule":"score","atLeast":5}]`, "swimming"),
      Result.succeed([{ rule: "finish", places: 3 }, { rule: "score", atLeast: 5 }])
    )
    assert.deepStrictEqual(parseAutoRules(`[{"rule":"finish","winner":true}]`, "swimming"), Result.succeed([{ rule: "finish", winner: true }]))
    assert.strictEqual(
      failure(`[{"rule":"finish"}]`, "waterpolo"),
      "auto-highlight rules: [0].rule: finish does not fit waterpolo: rules for waterpolo are score, lead-change, tie, period-end"
    )
    assert.strictEqual(
      failure(`[{"rule":"finish","team":"away"},{"rule":"tie","places":2}]`, "swimming"),
      "auto-highlight rules: [0].team: a finish is a swimmer's, about neither team, so no highlight would pass this filter — leave team out; "
        + "[1].places: only for rule: finish (which places make a click); tie does not use it — leave it out"
    )
    assert.strictEqual(
      failure(`[{"rule":"finish","places":0}]`, "swimming"),
      "auto-highlight rules: [0].places: must be a whole number from 1 to 12 (a pool has at most 12 lanes), got 0"
    )
    assert.strictEqual(rulesFor("swimming").join(", "), "score, lead-change, tie, period-end, finish")
    assert.strictEqual(ruleFamily("swimming"), "race")
    assert.deepStrictEqual(defaultRuleWindow("finish", "swimming"), { beforeSeconds: 10, afterSeconds: 6 })
  })

  it("accepts exactly the rules the catalog fits to each sport", () => {
    assert.deepStrictEqual(rulesFor("padel"), rulesFor("tennis"))
    assert.deepStrictEqual(rulesFor("beachvolleyball"), ["score", "lead-change", "tie", "period-end", "set-won", "set-point", "match-point"])
    assert.deepStrictEqual(rulesFor("hockey"), ["score", "lead-change", "tie", "period-end"])
    for (const sport of apiSports) {
      for (const rule of autoRuleNames) {
        const fits = ruleFamilies[rule].includes(ruleFamily(sport))
        assert.strictEqual(Result.isSuccess(parseAutoRules(JSON.stringify([{ rule }]), sport)), fits, `${rule} at ${sport}`)
      }
    }
  })
})
