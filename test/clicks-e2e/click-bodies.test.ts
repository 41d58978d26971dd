import type { FileHandle } from "node:fs/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RecordedRequest } from "../../simulator/control-client.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, type PtyWriter, startPtyPair } from "../../scripts/support/pty.ts"
import {
  type Broker,
  clicksOn,
  type Daemon,
  fifo,
  gpiomonLine,
  gpiomonStandIn,
  keyEdge,
  nextClientId,
  place,
  type Service,
  sport,
  startBroker,
  startDaemon,
  startService,
  untilHeard,
  utf8Bytes,
  waitForClicks,
  waitForLog
} from "./harness.ts"

/**
 * One daemon, one place, one button source of every kind, and a scoreboard
 * on a pty feeding the place's score: each press must reach the simulator as
 * exactly the click it stands for.
 */

const res = resources()
const teams = { homeTeam: "Lakers", awayTeam: "Celtics" }
const window = { beforeSeconds: 8, afterSeconds: 4 }
const remoteTopic = "zigbee2mqtt/court1-remote"
const gen1Topic = "shellies/shellybutton1-C45BBE6A1B2C/input_event/0"
const gen2Topic = "shellyplusi4-a8032ab8b9d4/events/rpc"
const KEY_A = 30

const homeOverlay = {
  templateSource: "https://cdn.example.com/court1/scorebug.html",
  values: { team: "{{team}}", matchup: "{{homeTeam}} v {{awayTeam}}", score: "{{homeScore}}–{{awayScore}}", period: "Q{{period}}" },
  widthPercentOfWidth: 30,
  marginPercentOfWidth: 2,
  position: { horizontal: "center", vertical: "bottom" } as const,
  duration: 4000
}
const awayOverlay = {
  imageSource: "https://cdn.example.com/court1/away.png",
  heightPercentOfHeight: 10,
  position: { horizontal: "right", vertical: "top" } as const
}

let service: Service
let broker: Broker
let daemon: Daemon
let eventKey: string
let buttonsPty: PtyWriter
let pedal: FileHandle
let gpio: FileHandle
/** The score entry the simulator accepted for the place: every click must carry it as `score`. */
let scoreEntry: Record<string, unknown>

const publish = (topic: string, payload: unknown, retain = false) =>
  broker.peer.publishAsync(topic, typeof payload === "string" ? payload : JSON.stringify(payload), { qos: 1, retain })

const notifyEvent = (component: string, event: string, ts?: number) => ({
  src: "shellyplusi4-a8032ab8b9d4",
  dst: "shellyplusi4-a8032ab8b9d4/events",
  method: "NotifyEvent",
  params: { ...(ts === undefined ? {} : { ts }), events: [{ component, id: Number(component.split(":")[1]), event, ...(ts === undefined ? {} : { ts }) }] }
})

// Presses of buttons no action names: the daemon's debug line shows it heard them.
const remoteHeard = () => untilHeard(daemon, "single on remote/probe: no action configured", () => publish(remoteTopic, { action: "probe_single" }))
const shellyHeard = () => untilHeard(daemon, "single on shelly/9: no action configured", () => publish(gen2Topic, notifyEvent("input:9", "single_push")))

beforeAll(async () => {
  const dir = tempDir("clicks-bodies", res)
  service = await startService(res, 20)
  broker = await startBroker(res, dir)
  ;({ eventKey } = await service.control.startEvent(place, { ...teams, name: "clicks e2e" }))
  const board = await startPtyPair(dir, "board")
  res.defer(() => board.stop())
  const arduino = await startPtyPair(dir, "arduino")
  res.defer(() => arduino.stop())
  const pedalFifo = fifo(res, dir, "usb-pedal-event-kbd")
  const gpioFifo = fifo(res, dir, "gpio-edges")

  // Old presses kept by the broker: replayed to the daemon's subscription, they must make no click.
  await publish(remoteTopic, { action: "single" }, true)
  await publish(gen1Topic, { event: "S", event_cnt: 4 }, true)

  daemon = await startDaemon(res, daemonConfig({
    service: { baseUrl: service.url, requestsPerSecond: 20, timeoutMs: 2_000 },
    stateDirectory: tempDir("clicks-bodies-state", res),
    mqtt: { url: broker.mosquitto.url, clientId: nextClientId("daemon") },
    buttons: [
      { name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } },
      { name: "shelly", type: "shelly", mqtt: { topics: ["shellies/shellybutton1-C45BBE6A1B2C/input_event/+", gen2Topic] } },
      { name: "arduino", type: "serial-buttons", serial: { path: arduino.daemonPath } },
      { name: "pedal", type: "input-event", device: pedalFifo.path, options: { keys: ["KEY_A"] } },
      { name: "header", type: "gpiomon", gpio: { chip: "gpiochip0", lines: [17], command: gpiomonStandIn(dir, gpioFifo.path) } }
    ],
    places: [{
      key: place,
      sport,
      scoreboard: { protocol: "lines", serial: { path: board.daemonPath }, options: { pattern: "^S (?<home>\\d+) (?<away>\\d+) (?<period>\\d+)$" } },
      actions: [
        { source: "remote", button: 1, gesture: "single", do: "highlight", team: "home" },
        { source: "remote", button: 2, gesture: "single", do: "highlight", team: "away" },
        { source: "remote", gesture: "hold", do: "undo" },
        { source: "shelly", button: 0, gesture: "single", do: "highlight" },
        { source: "shelly", button: 1, gesture: "single", do: "highlight", team: "home" },
        { source: "arduino", button: 1, gesture: "single", do: "highlight", team: "away" },
        { source: "pedal", button: KEY_A, gesture: "single", do: "highlight", team: "home" },
        { source: "header", button: 17, gesture: "single", do: "highlight", team: "away" }
      ],
      clicks: window,
      teams: { home: { overlay: homeOverlay }, away: { overlay: awayOverlay } }
    }]
  }))

  // The writers open once the daemon has the other ends: nothing stale is queued in them.
  pedal = await pedalFifo.open()
  gpio = await gpioFifo.open()
  await waitForLog(daemon, "serial port connected", 2)
  const boardWriter = openWriter(board.writerPath)
  res.defer(() => boardWriter.close())
  buttonsPty = openWriter(arduino.writerPath)
  res.defer(() => buttonsPty.close())

  boardWriter.write("S 12 10 2\n")
  const [accepted] = await eventually("the score entry at the simulator", async () => {
    const scores = await service.control.requests({ method: "POST", pathPrefix: `/public/places/${place}/score`, status: 200 })
    return scores.length > 0 ? scores : undefined
  })
  scoreEntry = accepted!.body as Record<string, unknown>
  expect(scoreEntry).toMatchObject({ left: 12, right: 10, period: 2 })
  // The live values {{homeTeam}}/{{awayTeam}} come from the event, read by the background refresh.
  await eventually("the daemon to read the live event", async () =>
    (await service.control.requests({ method: "GET", pathPrefix: `/public/events/${eventKey}`, status: 200 })).length > 0 ? true : undefined)
  await remoteHeard()
  await shellyHeard()
}, 30_000)

afterAll(() => res.release())

interface PressExpectation {
  readonly team: "home" | "away" | "none"
  readonly source: string
  readonly button: string
  /** The device's own edge time; absent where the source has none and the receive time is the press time. */
  readonly deviceTime?: number
}

/**
 * Presses once and checks the one click it makes, body and all, against what
 * the press, the config, the score entry and the event say it must be.
 */
const pressMakesClick = async (press: () => unknown, expected: PressExpectation): Promise<RecordedRequest> => {
  const before = (await clicksOn(service, eventKey)).length
  const pressedFrom = Date.now()
  await press()
  const clicks = await waitForClicks(service, eventKey, before + 1)
  const click = clicks[before]!
  const body = click.body as { timeStamp: number; metadata: Record<string, unknown> }

  const timeStamp = expected.deviceTime ?? body.timeStamp
  if (expected.deviceTime === undefined) {
    // Stamped on receipt: between the publish/write and the click's arrival.
    expect(body.timeStamp).toBeGreaterThanOrEqual(pressedFrom)
    expect(body.timeStamp).toBeLessThanOrEqual(click.at)
  }
  const overlay = expected.team === "home"
    ? { ...homeOverlay, values: { team: "Lakers", matchup: "Lakers v Celtics", score: "12–10", period: "Q2" } }
    : expected.team === "away"
    ? awayOverlay
    : undefined
  expect(body).toEqual({
    timeStamp,
    startTime: timeStamp - window.beforeSeconds * 1000,
    endTime: timeStamp + window.afterSeconds * 1000,
    score: scoreEntry,
    ...(overlay === undefined ? {} : { overlays: [overlay] }),
    metadata: { clickId: expect.stringMatching(/^[\w-]{8,}$/), team: expected.team, source: expected.source, button: expected.button, gesture: "single" }
  })
  expect(utf8Bytes(body.metadata)).toBeLessThanOrEqual(500)
  expect(click.status, JSON.stringify(click.response)).toBe(200)
  return click
}

describe("courtside presses → exact clicks at the simulator", () => {
  it("zigbee2mqtt: single on button 1 → home highlight with the live-filled scorebug", () =>
    pressMakesClick(() => publish(remoteTopic, { action: "single" }), { team: "home", source: "remote", button: "1" }))

  it("zigbee2mqtt: 2_single (multi-button remote) → away highlight with the logo", () =>
    pressMakesClick(() => publish(remoteTopic, { action: "2_single" }), { team: "away", source: "remote", button: "2" }))

  it("Shelly Gen1: S on input 0 → neutral highlight; the retained event's count and a repeated event_cnt make none", async () => {
    const storedClicks = async () => Object.entries(await daemon.outbox()).filter(([kind]) => kind.startsWith("click/")).reduce((sum, [, n]) => sum + n, 0)
    const noClickFrom = async (payload: unknown) => {
      const before = { stored: await storedClicks(), sent: (await clicksOn(service, eventKey)).length }
      await publish(gen1Topic, payload)
      // The probe is handled after the message: by then a click from it would be stored in the outbox.
      await shellyHeard()
      expect(await storedClicks()).toBe(before.stored)
      expect((await clicksOn(service, eventKey)).length).toBe(before.sent)
    }
    // The count of the retained message: the daemon saw it on subscribing and took it for no press.
    await noClickFrom({ event: "S", event_cnt: 4 })
    await pressMakesClick(() => publish(gen1Topic, { event: "S", event_cnt: 5 }), { team: "none", source: "shelly", button: "0" })
    await noClickFrom({ event: "S", event_cnt: 5 })
  })

  it("Shelly Gen2: NotifyEvent single_push → home highlight stamped with the device's ts", () => {
    const deviceTime = Date.now() - 1_234
    return pressMakesClick(() => publish(gen2Topic, notifyEvent("input:1", "single_push", deviceTime / 1000)), {
      team: "home",
      source: "shelly",
      button: "1",
      deviceTime
    })
  })

  it("serial buttons over a pty: `BTN 1 single` → away highlight", () =>
    pressMakesClick(() => buttonsPty.write("BTN 1 single\n"), { team: "away", source: "arduino", button: "1" }))

  it("input device (FIFO of input_event records): KEY_A press + release → home highlight at the kernel's press time", () => {
    const kernelTime = Date.now() - 1_500
    const records = Buffer.concat([keyEdge(kernelTime, KEY_A, true), keyEdge(kernelTime + 120, KEY_A, false)])
    return pressMakesClick(() => pedal.write(records), { team: "home", source: "pedal", button: String(KEY_A), deviceTime: kernelTime })
  })

  it("gpiomon stand-in (v2 lines): rising + falling on line 17 → away highlight at the rising edge's time", () => {
    const edgeTime = Date.now() - 1_700
    const lines = gpiomonLine(edgeTime, "rising", 17) + gpiomonLine(edgeTime + 120, "falling", 17)
    return pressMakesClick(() => gpio.write(lines), { team: "away", source: "header", button: "17", deviceTime: edgeTime })
  })

  it("retained presses made no click, and every click made one moment with a distinct click id", async () => {
    // Live presses above: remote ×2, Gen1, Gen2, serial, pedal, gpio. The retained ones came before all of them.
    await remoteHeard()
    const clicks = await clicksOn(service, eventKey)
    expect(clicks.map((c) => (c.body as { metadata: { source: string; button: string } }).metadata)
      .map((m) => `${m.source}/${m.button}`)).toEqual(["remote/1", "remote/2", "shelly/0", "shelly/1", "arduino/1", "pedal/30", "header/17"])
    const ids = clicks.map((c) => (c.body as { metadata: { clickId: string } }).metadata.clickId)
    expect(new Set(ids).size).toBe(ids.length)
    const event = (await service.control.state()).events.find((e) => e.key === eventKey)!
    expect(event.moments.map((m) => m.metadata?.["clickId"])).toEqual(ids)
  })
})

describe("undo", () => {
  it("two highlights, then a hold: the second moment is deleted, the first stays", async () => {
    const before = (await clicksOn(service, eventKey)).length
    await publish(remoteTopic, { action: "single" })
    await waitForClicks(service, eventKey, before + 1)
    await publish(remoteTopic, { action: "2_single" })
    const clicks = await waitForClicks(service, eventKey, before + 2)
    const [first, second] = clicks.slice(before).map((c) => (c.response as { momentKey: string }).momentKey)
    expect(first).toBeDefined()
    expect(second).toBeDefined()

    await publish(remoteTopic, { action: "hold" })
    const deletes = await eventually("the undo at the simulator", async () => {
      const found = await service.control.requests({ method: "DELETE", pathPrefix: "/public/moments/" })
      return found.length > 0 ? found : undefined
    })
    expect(deletes.map((d) => [d.path, d.status])).toEqual([[`/public/moments/${second}`, 200]])
    const moments = (await service.control.state()).events.find((e) => e.key === eventKey)!.moments.map((m) => m.key)
    expect(moments).toContain(first)
    expect(moments).not.toContain(second)
    expect(await daemon.outbox()).toMatchObject({ "undo/delivered": 1 })
  })
})
