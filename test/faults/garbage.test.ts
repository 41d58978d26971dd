import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import { daktronicsBasketball } from "../scoreboard/consoles/daktronics.ts"
import { basketballEntry, basketballQuarter } from "../scoreboard/matches/basketball-quarter.ts"
import { eventually } from "../support/eventually.ts"
import { openWriter } from "../support/pty.ts"
import { eventOf } from "./support/guarantees.ts"
import { scenarioTimeoutMs, sizes, suiteSeed } from "./support/mode.ts"
import { primeSession } from "./support/presses.ts"
import { figures, recordFigures } from "./support/summary.ts"
import { statusOutputs, tokenLeaks } from "./support/token-scan.ts"
import { jsonTopic, mqttPlace, remoteTopic, rtdPlace, scoreboardPlace, startWorld, type World } from "./support/world.ts"

let world: World | undefined
afterEach(async () => {
  await world?.release()
  world = undefined
})

/** RSS growth allowed over the second flood: the daemon's buffers are bounded, a leak is not. */
const rssGrowthLimitKb = 32 * 1024

const j6 = readFileSync(join(import.meta.dirname, "../../adapters/daktronics-rtd/fixtures/football-j6-terminal-capture.bin"))

/** Real RTD frames broken the ways a cable breaks them: cut short, a byte changed, a checksum changed. */
const brokenFrames = (seed: number): Array<Uint8Array> => {
  const random = seededRandom(seed)
  const console = daktronicsBasketball()
  return basketballQuarter(seed).map(({ board }) => {
    const bytes = Uint8Array.from(console.encode(board) as Uint8Array)
    switch (random.int(0, 2)) {
      case 0:
        return bytes.slice(0, random.int(1, bytes.length - 2))
      case 1: {
        // Inside the text (after the 21-byte header, before EOT + checksum + ETB): the checksum no longer matches.
        const at = random.int(21, bytes.length - 5)
        bytes[at] = bytes[at]! ^ (1 << random.int(0, 6))
        return bytes
      }
      default:
        bytes[bytes.length - 2] = bytes[bytes.length - 2] === 0x30 ? 0x31 : 0x30
        return bytes
    }
  })
}

/** Payloads no decoder may turn into an entry or a press. */
const malformed = (random: ReturnType<typeof seededRandom>, n: number): string | Uint8Array => {
  switch (n % 8) {
    case 0:
      return Uint8Array.from({ length: random.int(0, 300) }, () => random.int(0, 255))
    case 1:
      return `{"score":{"home":${random.int(0, 99)},"away":` // cut short
    case 2:
      return JSON.stringify({ score: { home: "three", away: null }, quarter: "x" })
    case 3:
      return JSON.stringify([1, 2, 3])
    case 4:
      return "x".repeat(random.int(1, 20_000))
    case 5:
      return JSON.stringify({ action: random.int(0, 9) })
    case 6:
      return `{"action":"${"single".slice(0, random.int(0, 5))}`
    default:
      return "null"
  }
}

const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve))

describe("garbage on every input", () => {
  it(`J6 capture, ${sizes.randomBytes} random bytes, broken frames, ${sizes.malformedMqtt} malformed MQTT payloads: no crash, no entry, bounded memory`, async () => {
    const seed = suiteSeed("garbage")
    const random = seededRandom(seed)
    world = await startWorld("garbage", { daktronics: true })
    const { daemon, pty, rtdPty, publisher } = world
    await primeSession(world)
    // Two identical floods: the first warms the heap and buffers up to their bounds, so growth
    // in the second is what a leak (growing with the input) would show.
    const flood = async (round: number): Promise<number> => {
      const lines = openWriter(pty.writerPath)
      const rtd = openWriter(rtdPty!.writerPath)
      let bytes = 0
      try {
        for (const writer of [lines, rtd]) writer.write(j6)
        bytes += 2 * j6.length
        for (const frame of brokenFrames(seed + round)) {
          rtd.write(frame)
          bytes += frame.length
        }
        // Random bytes in 64 kB chunks, to both consoles, letting the loop breathe between.
        for (let sent = 0; sent < sizes.randomBytes / 2; sent += 65_536) {
          const chunk = Uint8Array.from({ length: 65_536 }, () => random.int(0, 255))
          ;(sent % 131_072 === 0 ? lines : rtd).write(chunk)
          bytes += chunk.length
          await yieldToLoop()
        }
      } finally {
        lines.close()
        rtd.close()
      }
      for (let n = 0; n < sizes.malformedMqtt / 2; n++) {
        await publisher.publishAsync(n % 2 === 0 ? jsonTopic : remoteTopic, malformed(random, n) as string, { qos: 1 })
      }
      // Everything sent has been read once the daemon answers a good press behind it.
      await publisher.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
      await eventually("the good press after the garbage to arrive", async () =>
        (await eventOf(world!, mqttPlace)).moments.length >= round + 2 ? true : undefined, { timeoutMs: 60_000, intervalMs: 250 })
      return bytes
    }
    const rssStart = daemon.rssKb()
    let bytes = await flood(0)
    const rssBefore = daemon.rssKb()
    bytes += await flood(1)
    const rssAfter = daemon.rssKb()

    // The RTD decoder is not stuck: one good full frame after the garbage makes exactly its entry.
    const board = basketballQuarter(seed)[0]!.board
    const good = openWriter(rtdPty!.writerPath)
    good.write(daktronicsBasketball().encode(board))
    good.close()
    await eventually("the good frame's entry", async () =>
      (await eventOf(world!, rtdPlace)).scoreStream.length > 0 ? true : undefined, { timeoutMs: 15_000, intervalMs: 200 })

    const entries = {
      [scoreboardPlace]: (await eventOf(world, scoreboardPlace)).scoreStream,
      [mqttPlace]: (await eventOf(world, mqttPlace)).scoreStream,
      [rtdPlace]: (await eventOf(world, rtdPlace)).scoreStream.map(({ left, right, period }) => ({ left, right, period }))
    }
    const moments = (await eventOf(world, mqttPlace)).moments.length
    recordFigures("garbage", {
      ...figures(),
      runs: 1,
      faultsInjected: bytes + sizes.malformedMqtt,
      pressesSent: 3,
      pressesDelivered: moments,
      crashes: daemon.crashes(),
      notes: `seed ${seed}; ${bytes} garbage bytes and ${sizes.malformedMqtt} MQTT payloads; RSS ${rssStart} → ${rssBefore} kB after the first half, → ${rssAfter} kB after the second (limit +${rssGrowthLimitKb} kB)`
    })
    expect(daemon.alive(), daemon.tail()).toBe(true)
    expect(daemon.crashes()).toBe(0)
    expect(entries).toEqual({ [scoreboardPlace]: [], [mqttPlace]: [], [rtdPlace]: [basketballEntry(board)] })
    expect(moments, "moments: the priming press and the two good ones, nothing from garbage").toBe(3)
    expect(rssAfter - rssBefore, `RSS growth in kB over the second flood (${rssStart} → ${rssBefore} → ${rssAfter})`).toBeLessThan(rssGrowthLimitKb)
    expect(tokenLeaks(world.dir, world.token, await statusOutputs(world.statusUrl))).toEqual([])
  }, scenarioTimeoutMs)
})
