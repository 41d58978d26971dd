import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { lateFallbackWindow } from "../../src/clicks/late-press.ts"
import type { RecordedRequest } from "../../simulator/control-client.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { readListeningMark } from "../../src/transport/listening-mark.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { primeSession } from "./support/presses.ts"
import { figures, recordFigures } from "./support/summary.ts"
import { mqttPlace, remoteTopic, startWorld, type World } from "./support/world.ts"
import { sleep } from "../support/sleep.ts"

let world: World | undefined
afterEach(async () => {
  await world?.release()
  world = undefined
})

interface SentClick {
  readonly timeStamp: number
  readonly startTime?: number
  readonly endTime?: number
  readonly metadata: { readonly clickId: string; readonly pressedAfter?: number | null }
}

const bodyOf = (r: RecordedRequest) => r.body as SentClick
const beforeMs = lateFallbackWindow.beforeSeconds * 1000
const afterMs = lateFallbackWindow.afterSeconds * 1000

/**
 * A zigbee2mqtt remote has no clock: a press's time is when it reaches the bridge. Pressed while
 * the bridge is down, it waits at the broker and arrives after the restart, so its arrival says
 * nothing about when it was made.
 */
describe("presses the broker held while the bridge was down", () => {
  it("get a window widened back over the bridge's last sign of life, said in the log, on the status page and in the click's metadata; a live press after them does not", async () => {
    world = await startWorld("late-press")
    const { control, daemon } = world
    await primeSession(world)
    const clicksPath = `/public/events/${world.eventKeys[mqttPlace]}/clicks`
    const accepted = () => control.requests({ method: "POST", pathPrefix: clicksPath, status: 200 })
    const before = (await accepted()).length

    // Killed as by a power cut: only the periodic listening mark is left.
    await sleep(1_000)
    await daemon.kill9()
    const lastSignOfLife = readListeningMark(join(world.stateDirectory, "mqtt-listening"))
    expect(lastSignOfLife, "the listening mark left by the killed run").not.toBeNull()
    const published: Array<number> = []
    for (let n = 0; n < 2; n++) {
      await sleep(1_500)
      published.push(Date.now())
      await world.publisher.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
    }
    await sleep(1_000)
    const from = daemon.logs().length
    daemon.start()
    const late = await eventually("both held presses delivered", async () => {
      const clicks = (await accepted()).slice(before)
      return clicks.length >= 2 ? clicks.map(bodyOf) : undefined
    }, { timeoutMs: 20_000, intervalMs: 100 })
    const status = await (await fetch(`${world.statusUrl}/status.json`)).json() as StatusSnapshot
    const lastPress = status.places.find((p) => p.key === mqttPlace)!.lastPress

    for (const [i, click] of late.entries()) {
      const pressedAt = published[i]!
      expect(click.timeStamp, "the arrival, after the press").toBeGreaterThan(pressedAt)
      expect(click.metadata.pressedAfter, "the last sign of life, in the metadata").toBe(lastSignOfLife)
      // Covers every moment the press can have been made, with the window around it.
      expect(click.startTime, "window start").toBeLessThanOrEqual(lastSignOfLife! - beforeMs)
      expect(click.endTime, "window end").toBeGreaterThanOrEqual(click.timeStamp + afterMs)
      expect(click.startTime!, "never before the footage an open event keeps").toBeGreaterThanOrEqual(click.timeStamp - 60_000)
    }
    const warned = daemon.logs().slice(from).filter((l) => l.level === 40 && l.msg.includes("waited at the broker while the bridge was not listening"))
    expect(warned.length, "one warning per held press").toBe(2)
    expect(lastPress?.late, "the status page's last press").toMatchObject({ after: lastSignOfLife, startTime: late[1]!.startTime, endTime: late[1]!.endTime })
    for (const [i, click] of late.entries()) {
      const clip = await eventually(`the clips of ${click.metadata.clickId}`, async () =>
        (await control.state()).events.find((e) => e.key === world!.eventKeys[mqttPlace])!.moments
          .find((m) => m.metadata?.["clickId"] === click.metadata.clickId)?.videoClips[0], { timeoutMs: 5_000, intervalMs: 100 })
      expect(clip.startTime, "the clip begins before the real press").toBeLessThanOrEqual(published[i]!)
    }

    // Once the held queue is through, a press is live again: its time is its arrival.
    await sleep(2_500)
    const pressedLive = Date.now()
    await world.publisher.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
    const live = await eventually("the live press delivered", async () => {
      const clicks = (await accepted()).slice(before + 2)
      return clicks.length >= 1 ? bodyOf(clicks[0]!) : undefined
    }, { timeoutMs: 10_000, intervalMs: 100 })
    expect(live.timeStamp).toBeGreaterThanOrEqual(pressedLive)
    expect(live.metadata.pressedAfter).toBeUndefined()
    expect(live.startTime, "the sport's default window").toBeUndefined()

    recordFigures("late-press", {
      ...figures(),
      runs: 2,
      faultsInjected: 1,
      pressesSent: 3,
      pressesDelivered: late.length + 1,
      crashes: daemon.crashes(),
      notes: `last sign of life ${lastSignOfLife}; held presses published ${published.map((p) => p - lastSignOfLife!).join(", ")} ms after it, ` +
        `arrived ${late.map((c, i) => c.timeStamp - published[i]!).join(", ")} ms after publishing; windows start ${late.map((c) => c.timeStamp - c.startTime!).join(", ")} ms before arrival`
    })
  }, 90_000)
})
