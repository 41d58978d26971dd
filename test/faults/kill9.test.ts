import { afterEach, describe, it } from "vitest"
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

describe("kill -9 at random moments while a match streams over a pty and presses arrive over MQTT", () => {
  it(`${sizes.killRuns} kills: every received change once, in order, original stamps; every press once`, async () => {
    const seed = suiteSeed("kill9")
    const random = seededRandom(seed)
    world = await startWorld("kill9")
    const { daemon, pty } = world
    // A point every ~0.4 s (long) / 0.1 s (short): the set spans all the runs.
    const match = streamMatch(pty.writerPath, seed, long ? 400 : 100)
    const presser = pressEvery(world.publisher, 350, [await primeSession(world)])
    const cutoffs: Array<number> = []
    const result = figures()

    for (let run = 0; run < sizes.killRuns; run++) {
      const from = run === 0 ? 0 : daemon.logs().length
      if (!daemon.alive()) daemon.start()
      // Random moments: sometimes while it is still starting, mostly mid-stream.
      const aliveMs = random.int(300, long ? 6_000 : 3_000)
      let killed = false
      const connected = daemon.waitForLog(/serial port connected/, { from, timeoutMs: aliveMs }).then(
        // The log is polled: it may be seen only after the kill, when nobody reads the pty any more.
        () => killed || match.resume(),
        () => undefined
      )
      await sleep(aliveMs)
      killed = true
      await daemon.kill9()
      cutoffs.push(Date.now())
      match.pause()
      await connected
      result.faultsInjected++
      // A fresh pair: bytes the dead daemon never read must not reach the next one stamped late
      // (on real hardware they die with the process's open port).
      await pty.unplug()
      await pty.replug()
    }

    const from = daemon.logs().length
    daemon.start()
    await daemon.waitForLog(/serial port connected/, { from })
    match.resume()
    result.runs = sizes.killRuns + 1
    result.notes = `seed ${seed}`
    await settleAndCheck("kill9", world, match, presser, cutoffs, result)
  }, scenarioTimeoutMs)
})
