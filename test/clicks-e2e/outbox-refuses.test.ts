import type { FileHandle } from "node:fs/promises"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import {
  type Broker,
  clicksOn,
  type Daemon,
  fifo,
  gpiomonLine,
  gpiomonStandIn,
  nextClientId,
  place,
  type Service,
  sport,
  startBroker,
  startDaemon,
  startService,
  untilHeard,
  waitForClicks,
  waitForLog
} from "./harness.ts"

/**
 * A press while the outbox refuses writes: another program holds the file's write lock
 * (SQLITE_BUSY), as a disk full or a read-only remount would refuse them, but undone at the
 * test's word. A press the broker keeps is not acknowledged and is stored once the lock goes; a
 * press from a line nobody redelivers (gpiomon) cannot be kept, and the operator is told why on
 * the feedback topic and in the log.
 */

const res = resources()
const remoteTopic = "zigbee2mqtt/court1-remote"
const feedbackTopic = "scorebridge/court-1/feedback"
const locked = "the file is locked by another process (SQLITE_BUSY)"

let service: Service
let broker: Broker
let daemon: Daemon
let eventKey: string
let stateDirectory: string
let gpio: FileHandle
const feedback: Array<Record<string, unknown>> = []

/** Takes the outbox's write lock, as another program would, until `release` (or the test's end). */
const lockOutbox = () => {
  const db = new DatabaseSync(join(stateDirectory, "outbox.sqlite"))
  db.exec("BEGIN IMMEDIATE")
  const release = () => {
    if (!db.isOpen) return
    db.exec("ROLLBACK")
    db.close()
  }
  res.defer(release)
  return { release }
}

const remoteHeard = () =>
  untilHeard(daemon, "single on remote/probe: no action configured", () =>
    broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "probe_single" }), { qos: 1 }))

// Each refused write holds the event loop for the outbox's busy timeout (5 s) first: waits allow for it.
const feedbackFor = (button: string, status: string) =>
  eventually(`"${status}" feedback for button ${button}`, () => feedback.find((f) => f["button"] === button && f["status"] === status), { timeoutMs: 15_000 })

beforeAll(async () => {
  const dir = tempDir("clicks-outbox-refuses", res)
  service = await startService(res, 20)
  broker = await startBroker(res, dir)
  ;({ eventKey } = await service.control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: "locked outbox" }))
  broker.peer.on("message", (topic, payload) => {
    if (topic === feedbackTopic) feedback.push(JSON.parse(payload.toString()) as Record<string, unknown>)
  })
  await broker.peer.subscribeAsync(feedbackTopic, { qos: 1 })
  const gpioFifo = fifo(res, dir, "gpio-edges")
  stateDirectory = tempDir("clicks-outbox-refuses-state", res)
  daemon = await startDaemon(res, daemonConfig({
    service: { baseUrl: service.url, requestsPerSecond: 20, timeoutMs: 2_000 },
    stateDirectory,
    mqtt: { url: broker.mosquitto.url, clientId: nextClientId("daemon") },
    buttons: [
      { name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } },
      { name: "header", type: "gpiomon", gpio: { chip: "gpiochip0", lines: [17], command: gpiomonStandIn(dir, gpioFifo.path) } }
    ],
    places: [{
      key: place,
      sport,
      actions: [
        { source: "remote", button: 1, gesture: "single", do: "highlight", team: "home" },
        { source: "header", button: 17, gesture: "single", do: "highlight", team: "away" }
      ],
      clicks: { beforeSeconds: 10, afterSeconds: 5, feedbackTopic }
    }]
  }))
  gpio = await gpioFifo.open()
  await remoteHeard()
}, 30_000)

afterAll(() => res.release())

describe("a press while the outbox refuses writes", () => {
  it("from the broker: not acknowledged, the log says why, and stored once the lock goes: one click", async () => {
    const lock = lockOutbox()
    await broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
    const refused = `${place}: press not stored (cannot write ${stateDirectory}/outbox.sqlite: ${locked}), not acknowledged to the broker; retrying`
    await waitForLog(daemon, refused)
    expect(daemon.logs.filter((l) => l.includes(refused)).every((l) => l.startsWith("Error ")), "logged as errors").toBe(true)
    expect(await clicksOn(service, eventKey)).toEqual([])
    expect(feedback.filter((f) => f["button"] === "1"), "no feedback before the press is stored").toEqual([])

    lock.release()
    const [click] = await waitForClicks(service, eventKey, 1)
    expect(click!.body).toMatchObject({ metadata: { source: "remote", button: "1", team: "home" } })
    expect(await feedbackFor("1", "queued")).toMatchObject({ place, gesture: "single", text: expect.stringContaining("on its way") })
    await eventually("the click delivered", async () => ((await daemon.outbox())["click/delivered"] === 1 ? true : undefined))
    // A press handled after it: a second store of the retried one would have made its click by now.
    await remoteHeard()
    expect(await clicksOn(service, eventKey)).toHaveLength(1)
  }, 40_000)

  it("from a line nobody redelivers: the operator is told it could not be stored, and why", async () => {
    const before = (await clicksOn(service, eventKey)).length
    const lock = lockOutbox()
    // Edges in the past, as gpiomon prints them: one stamped after its arrival would be a hold.
    const edgeAt = Date.now() - 1_000
    await gpio.write(gpiomonLine(edgeAt, "rising", 17) + gpiomonLine(edgeAt + 120, "falling", 17))
    const told = await feedbackFor("17", "not-stored")
    expect(told).toMatchObject({ place, gesture: "single", text: `${place}: single on header/17 could NOT be stored: cannot write ${stateDirectory}/outbox.sqlite: ${locked}` })
    await waitForLog(daemon, `Error ${place}: single on header/17 could NOT be stored`)

    lock.release()
    // The next press is stored as usual; the refused one made nothing.
    const nextAt = Date.now() - 1_000
    await gpio.write(gpiomonLine(nextAt, "rising", 17) + gpiomonLine(nextAt + 120, "falling", 17))
    await feedbackFor("17", "queued")
    const clicks = await waitForClicks(service, eventKey, before + 1)
    expect(clicks.slice(before).map((c) => (c.body as { metadata: { button: string } }).metadata.button)).toEqual(["17"])
    await remoteHeard()
    expect(await clicksOn(service, eventKey)).toHaveLength(before + 1)
  }, 40_000)
})

