import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { seededRandom } from "../../adapters/shared/seeded-random.ts"
import { daktronicsBasketball } from "../scoreboard/consoles/daktronics.ts"
import { basketballEntry, basketballQuarter } from "../scoreboard/matches/basketball-quarter.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter } from "../../scripts/support/pty.ts"
import { eventOf } from "./support/guarantees.ts"
import { type AfterGc, heapProbe } from "./support/heap-probe.ts"
import { type Installed, installedCopy } from "./support/installed.ts"
import { scenarioTimeoutMs, sizes, suiteSeed } from "./support/mode.ts"
import { primeSession } from "./support/presses.ts"
import { figures, recordFigures } from "./support/summary.ts"
import { statusOutputs, tokenLeaks } from "./support/token-scan.ts"
import { jsonTopic, mqttPlace, remoteTopic, rtdPlace, scoreboardPlace, startWorld, type World } from "./support/world.ts"

let world: World | undefined
let installed: Installed | undefined
afterEach(async () => {
  await world?.release()
  world = undefined
  installed?.remove()
  installed = undefined
})

/**
 * What the third flood may add to the daemon after a full GC (what it holds, not garbage it has
 * yet to collect), its figures settled by the two floods before it: a leak keeps some of every
 * flood, bounded buffers are full by then. In 19 runs the live heap grew by -4 to +11 kB over the
 * third flood and RSS by -0.3 to +2.1 MB; the Map of MQTT identities added 846 kB of heap per
 * flood, a leak of every serial chunk 5.3 MB of RSS, and each fails here. VmRSS as it is is only
 * recorded: between floods it moves with V8's collections, not with what the daemon holds.
 */
const heapGrowthLimitKb = 512
const rssGrowthLimitKb = 4 * 1024

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
  it(`three floods of J6 capture, ${sizes.randomBytes / 2} random bytes, broken frames, ${sizes.malformedMqtt / 2} malformed MQTT payloads: no crash, no entry, bounded memory`, async () => {
    const seed = suiteSeed("garbage")
    const random = seededRandom(seed)
    // As systemd runs it (the bundle, --jitless, small young generation, malloc settings), with
    // the bench's heap probe to read the daemon's memory after a full GC.
    installed = installedCopy()
    const probe = heapProbe(join(installed.dir, "heap.jsonl"))
    world = await startWorld("garbage", { daktronics: true, wrap: installed.wrap(probe.env) })
    const { daemon, pty, rtdPty, publisher } = world
    await primeSession(world)
    // Three identical floods: the first two fill the heap and buffers up to their bounds, so
    // growth in the third is what a leak (growing with the input) would show.
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
    // VmRSS as it is (garbage not yet collected included), then the daemon after a full GC.
    const measure = async () => ({ rssKb: daemon.rssKb(), afterGc: await probe.read(daemon.pid()!) })
    const measured: Array<{ readonly rssKb: number; readonly afterGc: AfterGc }> = [await measure()]
    let bytes = 0
    for (const round of [0, 1, 2]) {
      bytes += await flood(round)
      measured.push(await measure())
    }
    const settled = measured.at(-2)!
    const last = measured.at(-1)!
    const series = (pick: (m: (typeof measured)[number]) => number) => measured.map(pick).join(" → ")

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
      faultsInjected: bytes + 3 * (sizes.malformedMqtt / 2),
      pressesSent: 4,
      pressesDelivered: moments,
      crashes: daemon.crashes(),
      notes: `seed ${seed}; ${bytes} garbage bytes and ${3 * (sizes.malformedMqtt / 2)} MQTT payloads in three floods, as systemd runs the daemon; ` +
        `kB at start and after each flood: RSS ${series((m) => m.rssKb)}; after a full GC: RSS ${series((m) => m.afterGc.rssKb)}, ` +
        `heap ${series((m) => m.afterGc.heapUsedKb)}, external ${series((m) => m.afterGc.externalKb)} ` +
        `(limits over the third flood, after a full GC: heap +${heapGrowthLimitKb}, RSS +${rssGrowthLimitKb})`
    })
    expect(daemon.alive(), daemon.tail()).toBe(true)
    expect(daemon.crashes()).toBe(0)
    expect(entries).toEqual({ [scoreboardPlace]: [], [mqttPlace]: [], [rtdPlace]: [basketballEntry(board)] })
    expect(moments, "moments: the priming press and the three good ones, nothing from garbage").toBe(4)
    expect(last.afterGc.heapUsedKb - settled.afterGc.heapUsedKb, `heap growth in kB over the third flood, after a full GC (${series((m) => m.afterGc.heapUsedKb)})`)
      .toBeLessThan(heapGrowthLimitKb)
    expect(last.afterGc.rssKb - settled.afterGc.rssKb, `RSS growth in kB over the third flood, after a full GC (${series((m) => m.afterGc.rssKb)})`)
      .toBeLessThan(rssGrowthLimitKb)
    expect(tokenLeaks(world.dir, world.token, await statusOutputs(world.statusUrl))).toEqual([])
  }, scenarioTimeoutMs)
})
