import { rmSync } from "node:fs"
import { connectAsync } from "mqtt"
import { afterAll, afterEach, beforeAll, describe, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import type { SimulatedConsole } from "./consoles/console.ts"
import { jsonBasketball, jsonTennis, jsonVolleyball } from "./consoles/text.ts"
import { expectDelivered, expectModelShape, places, play, resources, type Sport, startBridge, type WriteTimes } from "./harness.ts"
import { basketballEntry, basketballQuarter } from "./matches/basketball-quarter.ts"
import { expectedEntries, type Step } from "./matches/match.ts"
import { tennisEntry, tennisSet } from "./matches/tennis-set.ts"
import { volleyballEntry, volleyballMatch } from "./matches/volleyball-match.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

describe("json over MQTT (framing: message): real daemon → simulator", () => {
  let dir: string
  let broker: Mosquitto
  let peers = 0
  const res = resources()

  beforeAll(async () => {
    dir = tempDir("scoreboard-mqtt")
    broker = await startMosquitto(dir)
  })
  afterAll(async () => {
    await broker?.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  afterEach(() => res.release())

  /**
   * The console publishes one document per board. Until the daemon's
   * subscription is in place the broker drops what is published, so the first
   * board is published every 50 ms until the daemon has stored its entry; that
   * entry must be stamped within 50 ms of one of those publishes.
   */
  const playOverMqtt = async <B, E>(sport: Sport, console: SimulatedConsole<B>, steps: ReadonlyArray<Step<B>>, entryOf: (board: B) => E) => {
    const expected = expectedEntries(steps, entryOf)
    expectModelShape(steps, expected)
    const topic = `venue/${places[sport]}/board`
    const bridge = await startBridge(res, sport, console as SimulatedConsole<never>, { mqtt: { url: broker.url, topic } })
    const peer = await connectAsync(broker.url, { clientId: `console-${process.pid}-${++peers}`, clean: true })
    res.defer(() => peer.endAsync())
    const send = (payload: Uint8Array | string) => peer.publishAsync(topic, Buffer.from(payload), { qos: 1 })
    const written: WriteTimes = []
    await eventually("the daemon to receive the first board", async () => {
      await play(steps, console, send, written, { to: 1, gapMs: 50 })
      const stored = Object.values(await bridge.outboxStates()).reduce((n, c) => n + c, 0)
      return stored > 0 ? true : undefined
    }, { timeoutMs: 8_000, intervalMs: 0 })
    await play(steps, console, send, written, { from: 1 })
    await expectDelivered(bridge, expected, written)
  }

  it("a basketball quarter: every basket once, clock ticks make no entry", () =>
    playOverMqtt("basketball", jsonBasketball(), basketballQuarter(41), (b) => basketballEntry(b)))

  it("a five-set volleyball match: finished sets plus live points", () =>
    playOverMqtt("volleyball", jsonVolleyball(), volleyballMatch(42), volleyballEntry))

  it("a tennis set to 6–6 and a tie-break: games as text, tie-break counts as numbers", () =>
    playOverMqtt("tennis", jsonTennis(), tennisSet(43), tennisEntry))
})
