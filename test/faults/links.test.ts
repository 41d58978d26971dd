import { afterEach, describe, expect, it } from "vitest"
import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import { streamMatch } from "./support/match-streamer.ts"
import { long, scenarioTimeoutMs, sizes, suiteSeed } from "./support/mode.ts"
import { pressEvery, primeSession } from "./support/presses.ts"
import { settleAndCheck } from "./support/settle.ts"
import { figures } from "./support/summary.ts"
import { startWorld, type World } from "./support/world.ts"
import { sleep } from "../support/sleep.ts"

let world: World | undefined
afterEach(async () => {
  await world?.release()
  world = undefined
})

const reconnectLimitMs = 2_000

describe("the scoreboard cable unplugged and replugged during a match", () => {
  it(`${sizes.unplugs} unplugs: each reconnect within ${reconnectLimitMs} ms, nothing lost after a replug`, async () => {
    const seed = suiteSeed("unplug")
    const random = seededRandom(seed)
    world = await startWorld("unplug")
    const { daemon, pty } = world
    const presser = pressEvery(world.publisher, 500, [await primeSession(world)])
    const match = streamMatch(pty.writerPath, seed, long ? 600 : 60)
    match.resume()
    const cutoffs: Array<number> = []
    const reconnects: Array<number> = []
    const result = figures()

    for (let n = 0; n < sizes.unplugs; n++) {
      await sleep(random.int(300, 1_200))
      // Bytes in the cable when it is pulled are lost at the source, like a frame cut in half.
      match.pause()
      cutoffs.push(Date.now())
      await pty.unplug()
      await sleep(random.int(100, 2_500))
      const from = daemon.logs().length
      await pty.replug()
      const pluggedAt = Date.now()
      const line = await daemon.waitForLog(/serial port connected/, { from, timeoutMs: 10_000 })
      reconnects.push(line.seenAt - pluggedAt)
      match.resume()
      result.faultsInjected++
    }
    const slow = reconnects.filter((ms) => ms > reconnectLimitMs)
    result.runs = 1
    result.notes = `seed ${seed}; reconnect after replug: max ${Math.max(...reconnects)} ms, median ${[...reconnects].sort((a, b) => a - b)[reconnects.length >> 1]} ms`
    expect(slow, `reconnects slower than ${reconnectLimitMs} ms (all: ${reconnects.join(",")})`).toEqual([])
    await settleAndCheck("unplug", world, match, presser, cutoffs, result)
  }, scenarioTimeoutMs)
})

describe("mosquitto restarted while presses arrive", () => {
  it(`${sizes.brokerRestarts} broker restarts: every press arrives exactly once`, async () => {
    const seed = suiteSeed("broker-restart")
    const random = seededRandom(seed)
    world = await startWorld("broker-restart")
    const { broker } = world
    const presser = pressEvery(world.publisher, 150, [await primeSession(world)])
    const match = streamMatch(world.pty.writerPath, seed, long ? 120 : 80)
    match.resume()
    const result = figures()

    for (let n = 0; n < sizes.brokerRestarts; n++) {
      await sleep(random.int(300, 1_500))
      const from = world.daemon.logs().length
      await broker.stop()
      await sleep(random.int(50, 1_500))
      await broker.start()
      // Each restart is one the daemon lives through: it is back before the next.
      await world.daemon.waitForLog(/MQTT connected \(session resumed\)/, { from, timeoutMs: 10_000 })
      result.faultsInjected++
    }
    result.runs = 1
    result.notes = `seed ${seed}`
    await settleAndCheck("broker-restart", world, match, presser, [], result)
    expect(world.daemon.logs().filter((l) => /MQTT connected \(session resumed\)/.test(l.msg)).length, "reconnects that resumed the session")
      .toBeGreaterThanOrEqual(sizes.brokerRestarts)
  }, scenarioTimeoutMs)
})
