import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ModelStream, raceStream } from "../../adapters/colorado-cts/console-model.ts"
import { defaultRuleWindow } from "../../src/domain/rule-catalog.ts"
import type { RecordedRequest } from "../../simulator/control-client.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type Bridge, resources } from "../scoreboard/harness.ts"
import { startPtyBridge } from "../scoreboard/pty-match.ts"
import { outboxByKind } from "../highlights-e2e/support.ts"
import { playPool, type PoolPlayer, poolConsole } from "./pool-console.ts"
import { heatWithEveryTrap } from "./races.ts"
import {
  acceptedFinishClicks,
  allClickRequests,
  byLane,
  expectFinishClicks,
  factsOf,
  filledValues,
  finishOverlay,
  type FinishClick,
  replayFinishes,
  scoreRequests,
  touchToleranceMs,
  untilFinishesDelivered,
  writeCapture
} from "./support.ts"

/**
 * A pool's Colorado console on a pty, the daemon a real process (the stamps are its own event
 * loop's), the simulator over HTTP with an event open on the pool. The console model plays a heat
 * in real time; the place has the `finish` rule and a clicks.overlay with every finish value.
 * Then `scorebridge replay` of the same bytes must say what the live daemon sent.
 */

const res = resources()
afterAll(() => res.release())

interface Live {
  readonly bridge: Bridge
  readonly stream: ModelStream
  /** Wall-clock ms of the stream's time 0. */
  readonly origin: number
  readonly clicks: ReadonlyArray<FinishClick>
  readonly allClicks: ReadonlyArray<RecordedRequest>
  readonly writes: ReturnType<PoolPlayer["figures"]>
  readonly runMs: number
}
let live: Live | undefined

const liveRun = (): Live => {
  if (live === undefined) throw new Error("the live heat did not run (see the beforeAll's failure)")
  return live
}

const runHeat = async (): Promise<Live> => {
  const began = Date.now()
  const stream = raceStream(heatWithEveryTrap, { seed: 33 })
  const { bridge, writer } = await startPtyBridge(res, "swimming", poolConsole, {
    process: true,
    place: { autoHighlights: [{ rule: "finish" }], clicks: { overlay: finishOverlay } }
  })
  const player = playPool(stream, writer)
  await player.done
  await untilFinishesDelivered(bridge, stream.finishes.length)
  return {
    bridge,
    stream,
    origin: player.origin,
    clicks: await acceptedFinishClicks(bridge),
    allClicks: await allClickRequests(bridge),
    writes: player.figures(),
    runMs: Date.now() - began
  }
}

describe("a heat from a Colorado console over a pty, the daemon a process: one click per finish", () => {
  beforeAll(async () => {
    live = await runHeat()
  }, 90_000)

  it("the model's heat has the traps it claims: 7 finishes of heat 2 (lane 5 off), in touch order", () => {
    const { stream } = liveRun()
    const truth = stream.finishes
    expect(truth.map((f) => f.lane).sort()).toEqual([1, 2, 3, 4, 6, 7, 8])
    // Heat 2's, also for the lanes that touched after the operator advanced to heat 3.
    expect(new Set(truth.map((f) => `${f.event}/${f.heat}`))).toEqual(new Set(["7/2"]))
    for (const finish of truth) {
      const script = heatWithEveryTrap.lanes.find((l) => l.lane === finish.lane)!
      expect(finish.touchMs, `lane ${finish.lane}'s touch`).toBe(stream.startMs + script.finishMs!)
    }
    expect([...truth].sort((a, b) => a.touchMs - b.touchMs).map((f) => f.place)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it("exactly one click per finish, stamped within 0.15 s of the touch, with the settled lane, place, time, event and heat", () => {
    const { stream, origin, clicks, bridge, writes, runMs } = liveRun()
    const errors = expectFinishClicks(clicks, stream.finishes, origin)
    const window = defaultRuleWindow("finish", "swimming")
    for (const click of clicks) {
      expect([click.timeStamp - click.startTime, click.endTime - click.timeStamp], `lane ${click.finish.lane}'s window`)
        .toEqual([window.beforeSeconds * 1000, window.afterSeconds * 1000])
    }
    console.info(`swimming e2e: stamp errors ${JSON.stringify(errors)} (max |error| ${Math.max(...errors.map((e) => Math.abs(e.errorMs)))} ms, `
      + `limit ${touchToleranceMs}); chunk writes ${JSON.stringify(writes)}; heat run ${runMs} ms; daemon log tail:\n${bridge.logs.slice(-5).join("\n")}`)
  })

  it("each click's overlay is the place's clicks.overlay with its finish's values", () => {
    const { stream, clicks } = liveRun()
    for (const click of clicks) {
      const finish = stream.finishes.find((f) => f.lane === click.finish.lane)!
      expect(click.body["overlays"], `lane ${finish.lane}'s overlay`).toEqual([{ ...finishOverlay, values: filledValues(finish) }])
      expect(click.body["score"], "a finish click carries no score").toBeUndefined()
    }
  })

  it("no click before the horn, no click but finishes, no score entry, everything delivered", async () => {
    const { stream, origin, allClicks, bridge } = liveRun()
    const horn = origin + stream.startMs
    expect(allClicks.filter((r) => r.at < horn).map((r) => r.body), "clicks that reached the simulator before the horn").toEqual([])
    expect(allClicks.filter((r) => (r.body as { metadata?: { rule?: string } }).metadata?.rule !== "finish").map((r) => r.body)).toEqual([])
    expect(await scoreRequests(bridge), "score entry requests").toEqual([])
    expect(await outboxByKind(bridge), "the pool's outbox").toEqual({ "auto/delivered": stream.finishes.length })
  })

  it("scorebridge replay of the same bytes prints the live finishes, each at its touch", async () => {
    const { stream, origin, clicks } = liveRun()
    const file = writeCapture(tempDir("swimming-replay", res), stream, origin)
    const { run, records, highlights, finishes } = await replayFinishes(file)
    expect(run.code, run.stderr).toBe(0)
    expect(highlights.map((h) => ({ rule: h.rule, rules: h.rules, team: h.team, finish: h.finish !== undefined })))
      .toEqual(stream.finishes.map(() => ({ rule: "finish", rules: ["finish"], team: "none", finish: true })))
    expect(byLane(finishes.map((h) => h.finish)), "replayed finishes = the live clicks'").toEqual(byLane(clicks.map((c) => c.finish)))
    expect(byLane(finishes.map((h) => h.finish))).toEqual(byLane(stream.finishes.map(factsOf)))
    const errors = finishes.map((h) => {
      const touch = origin + stream.finishes.find((f) => f.lane === h.finish.lane)!.touchMs
      const liveStamp = clicks.find((c) => c.finish.lane === h.finish.lane)!.timeStamp
      return { lane: h.finish.lane, touchMs: h.at - touch, liveMs: h.at - liveStamp }
    })
    expect(errors.filter((e) => !(Math.abs(e.touchMs) <= touchToleranceMs)), "replayed finishes over 0.15 s from the touch").toEqual([])
    expect(records.at(-1), "the summary").toMatchObject({ type: "summary", finishes: stream.finishes.length })
    console.info(`swimming replay: at − touch / at − live stamp ${JSON.stringify(errors)}`)
  })
})
