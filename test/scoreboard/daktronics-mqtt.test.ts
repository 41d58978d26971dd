import { rmSync } from "node:fs"
import { connectAsync } from "mqtt"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { tennisFields } from "./consoles/daktronics.ts"
import { rtdFieldConsole } from "./consoles/daktronics-fields.ts"
import { expectDelivered, places, resources, startBridge, type WriteTimes } from "./harness.ts"
import { expectedEntries } from "./matches/match.ts"
import { tennisEntry } from "./matches/tennis-set.ts"
import { tennisGameWon, tennisSetWon } from "./matches/turning-points.ts"
import { sleep } from "../support/sleep.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * RTD frames forwarded over MQTT (a serial-to-MQTT gateway), one message per frame: the frames
 * of one change arrive as back-to-back QoS 1 messages. mqtt.js hands the daemon the next message
 * only once the previous one is acknowledged, so a change is settled only if each message is
 * acknowledged when it has been read, not held until its change settles.
 */
describe("daktronics-rtd over MQTT, one frame per message: real daemon, mosquitto, simulator", () => {
  let dir: string
  let broker: Mosquitto
  const res = resources()

  beforeAll(async () => {
    dir = tempDir("rtd-mqtt")
    broker = await startMosquitto(dir)
  })
  afterAll(async () => {
    await broker?.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  afterEach(() => res.release())

  it("a won game and a won set: one entry each, stamped at the first frame", async () => {
    const steps = [...tennisGameWon(), ...tennisSetWon().slice(1)]
    const expected = expectedEntries(steps, tennisEntry)
    const console = rtdFieldConsole(tennisFields)
    const topic = `venue/${places.tennis}/rtd`
    const bridge = await startBridge(res, "tennis", { protocol: "daktronics-rtd", options: {}, encode: () => "" }, { mqtt: { url: broker.url, topic } })
    const peer = await connectAsync(broker.url, { clientId: `rtd-gateway-${process.pid}`, clean: true })
    res.defer(() => peer.endAsync())
    const publish = (frame: Uint8Array) => peer.publishAsync(topic, Buffer.from(frame), { qos: 1 })

    const written: WriteTimes = []
    // The full dump, again until the daemon's subscription is in place and it has stored the entry.
    const dump = console.frames(steps[0]!.board)
    await eventually("the daemon to receive the first board", async () => {
      ;(written[0] ??= []).push(Date.now())
      for (const frame of dump) await publish(frame)
      await sleep(100)
      const stored = Object.values(await bridge.outboxStates()).reduce((n, c) => n + c, 0)
      return stored > 0 ? true : undefined
    }, { timeoutMs: 8_000, intervalMs: 0 })

    let multiFrame = 0
    for (const [i, step] of steps.entries()) {
      if (i === 0) continue
      await sleep(step.tick ? 40 : 250)
      const frames = console.frames(step.board)
      if (frames.length > 1) multiFrame++
      written[i] = [Date.now()]
      await Promise.all(frames.map(publish))
    }
    expect(multiFrame, "changes sent as several messages").toBeGreaterThan(1)
    await expectDelivered(bridge, expected, written, 10_000)
  })
})
