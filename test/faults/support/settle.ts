import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect } from "vitest"
import { eventually } from "../../../scripts/support/eventually.ts"
import { chanceMs, checkEntries, checkPresses, comparable, eventOf } from "./guarantees.ts"
import type { MatchStreamer } from "./match-streamer.ts"
import { outboxStates } from "../../support/outbox-file.ts"
import type { Presser } from "./presses.ts"
import { recordFigures, type ScenarioFigures } from "./summary.ts"
import { statusOutputs, tokenLeaks } from "./token-scan.ts"
import { mqttPlace, scoreboardPlace, type World } from "./world.ts"

/** How long the end waits for the match's last change before judging it missing. */
const lastChangeGraceMs = 5_000

/**
 * The end of a scenario: waits for the match to finish, presses to stop, the outbox to drain
 * and the presses to arrive; then checks the guarantees (see guarantees.ts), that the daemon
 * never crashed and that the token is nowhere, and records the figures.
 */
export const settleAndCheck = async (
  scenario: string,
  world: World,
  match: MatchStreamer,
  presser: Presser,
  cutoffs: ReadonlyArray<number>,
  result: ScenarioFigures,
  drainMs = 60_000,
  /** How long before a cutoff a change may be lost (see checkEntries). */
  chance: number | ReadonlyArray<number> = chanceMs
): Promise<void> => {
  await match.finished
  const endedAt = Date.now()
  const lastChange = match.expected.at(-1)
  await presser.stop()
  await eventually("the outbox to drain and every press to arrive", async () => {
    const states = outboxStates(world.stateDirectory)
    if ((states["pending"] ?? 0) > 0) return undefined
    // The match's last frames may still be on their way (socat, decoder, outbox, a rate slot)
    // with nothing pending yet: wait for its last change, or a while for one that cannot come.
    const stream = (await eventOf(world, scoreboardPlace)).scoreStream
    const lastArrived = lastChange === undefined || stream.some((s) => comparable(s) === comparable(lastChange.entry))
    if (!lastArrived && Date.now() - endedAt < lastChangeGraceMs) return undefined
    const event = (await world.control.state()).events.find((e) => e.key === world.eventKeys[mqttPlace])
    return (event?.moments.length ?? 0) >= presser.acknowledged.length ? true : undefined
  }, { timeoutMs: drainMs, intervalMs: 250 }).catch(() => undefined)

  const entries = await checkEntries(world, scoreboardPlace, match, cutoffs, chance)
  const presses = await checkPresses(world, mqttPlace, presser.acknowledged)
  const leaks = tokenLeaks(world.dir, world.token, await statusOutputs(world.statusUrl))
  const states = outboxStates(world.stateDirectory)
  Object.assign(result, {
    entriesSent: entries.expected,
    entriesDelivered: entries.delivered,
    pressesSent: presses.sent,
    pressesDelivered: presses.delivered,
    duplicates: entries.duplicates + presses.duplicates,
    crashes: world.daemon.crashes(),
    notes: [result.notes, cutoffs.length > 0 ? `${entries.mayBeMissing} change(s) shown < ${typeof chance === "number" ? `${chance / 1000} s` : "the allowance"} before a kill not stored` : undefined, `outbox ${JSON.stringify(states)}`]
      .filter((n) => n !== undefined).join("; ")
  })
  recordFigures(scenario, result)
  if (entries.problems.length + presses.problems.length > 0) {
    // What the service saw, beside the daemon's log, for whoever debugs the failure.
    const artifacts = join(import.meta.dirname, "../../../test-artifacts/faults")
    mkdirSync(artifacts, { recursive: true })
    writeFileSync(join(artifacts, `${scenario}-requests.json`), JSON.stringify(await world.control.requests(), null, 1))
  }
  const tail = world.daemon.tail()
  expect(entries.problems, tail).toEqual([])
  expect(presses.problems, tail).toEqual([])
  // "missed": sent and made a moment, but after a minutes-long outage its footage was gone.
  expect(Object.keys(states).filter((s) => s !== "delivered" && s !== "missed"), "outbox items not delivered").toEqual([])
  expect(world.daemon.crashes(), tail).toBe(0)
  expect(world.daemon.alive(), "daemon still running").toBe(true)
  expect(leaks, "places where the token was found").toEqual([])
  // The scenario must have exercised something: most of the match arrived, presses flowed.
  expect(entries.delivered).toBeGreaterThan(entries.expected / 2)
  expect(presses.sent).toBeGreaterThan(3)
}
