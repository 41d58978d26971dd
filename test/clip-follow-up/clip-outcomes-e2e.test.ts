import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { connectAsync, type MqttClient } from "mqtt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SimulatorControl, type StateEvent } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { faultDaemon, type FaultDaemon } from "../../scripts/support/fault-daemon.ts"
import { daemonConfig, jsonCourtOverMqtt, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { venueTime, venueZone } from "../support/venue-zone.ts"

/**
 * The whole path of a clip's outcome with the real parts: the daemon as a process, the simulator
 * over HTTP with its cameras, presses and score states over mosquitto. A match where the camera
 * is off for a while: presses before and after get their clip, presses while it was off get
 * none, and a kill -9 while their follow-ups are pending loses none of them.
 */
const token = `clips-token-${process.pid}`
const place = "court-1"
const remoteTopic = "zigbee2mqtt/clips-remote"
const scoreTopic = "clips/court-1/score"
const feedbackTopic = "scorebridge/court-1/feedback"
const lampTopic = "zigbee2mqtt/court-1-lamp/set"

interface Feedback {
  readonly status: string
  readonly clickItemId?: number
  readonly momentKey?: string
  readonly videoURL?: string
  readonly angles?: number
  readonly text: string
}

describe("clip outcomes of a match whose camera is off for a while", () => {
  const releases: Array<() => unknown> = []
  let control: SimulatorControl
  let eventKey: string
  let daemon: FaultDaemon
  let publisher: MqttClient
  let statusUrl: string
  const feedback: Array<Feedback> = []
  const lamp: Array<string> = []

  beforeAll(async () => {
    const dir = tempDir("clips-e2e")
    releases.push(() => rmSync(dir, { recursive: true, force: true }))
    const sim = await startSimulator({
      port: 0, requestsPerSecond: 20, burst: 1, clipDelayMs: 500,
      seed: { organizations: [{ key: "clips-org", name: "Clips", tokens: [token], places: [{ key: place, name: "Court 1", sport: "basketball" }] }] }
    })
    releases.push(() => sim.close())
    control = new SimulatorControl(sim.url)
    eventKey = (await control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: "clips e2e" })).eventKey
    mkdirSync(join(dir, "broker"))
    const broker: Mosquitto = await startMosquitto(join(dir, "broker"))
    releases.push(() => broker.stop())
    publisher = await connectAsync(broker.url, { clientId: `clips-e2e-peer-${process.pid}`, clean: true })
    releases.push(() => publisher.endAsync(true))
    await publisher.subscribeAsync([feedbackTopic, lampTopic], { qos: 0 })
    publisher.on("message", (topic, payload) => {
      if (topic === feedbackTopic) feedback.push(JSON.parse(payload.toString("utf8")) as Feedback)
      if (topic === lampTopic) lamp.push(payload.toString("utf8"))
    })
    const stateDirectory = join(dir, "state")
    mkdirSync(stateDirectory)
    const listen = `127.0.0.1:${await freePort()}`
    statusUrl = `http://${listen}`
    const configFile = writeConfig(join(dir, "scorebridge.yaml"), daemonConfig({
      service: { baseUrl: sim.url, requestsPerSecond: 20, timeoutMs: 2_000 },
      stateDirectory,
      status: { listen },
      log: { level: "info" },
      clips: { firstReadSeconds: 1, noClipAfterSeconds: 10, problemAfterClicks: 3 },
      mqtt: { url: broker.url, clientId: `clips-e2e-daemon-${process.pid}` },
      buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } }],
      places: [{
        ...jsonCourtOverMqtt(place, scoreTopic, "remote"),
        clicks: { feedbackTopic, clipSignal: { topic: lampTopic, clipReady: { effect: "blink" }, noClip: { effect: "breathe" } } }
      }]
    }))
    // The mini-PC's zone, as its TZ: the problem line says the venue's clock.
    daemon = faultDaemon(configFile, join(dir, "daemon.log"), { SCOREBRIDGE_TOKEN: token, TZ: venueZone })
    releases.push(() => daemon.kill9())
    daemon.start()
    // Subscribed, not only connected: what is published before the broker grants a filter is lost.
    for (const topic of [remoteTopic, scoreTopic]) await daemon.waitForLog(new RegExp(`MQTT subscribed to .*${topic}`))
  }, 30_000)

  afterAll(async () => {
    while (releases.length > 0) await releases.pop()!()
  })

  const event = async (): Promise<StateEvent> => (await control.state()).events.find((e) => e.key === eventKey)!

  /** A press at QoS 1; returns once the simulator holds its moment (the click was accepted). */
  const press = async (count: number) => {
    await publisher.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
    await eventually(`moment ${count} at the simulator`, async () => ((await event()).moments.length >= count ? true : undefined), { timeoutMs: 10_000, intervalMs: 50 })
  }

  const score = (home: number, away: number) =>
    publisher.publishAsync(scoreTopic, JSON.stringify({ score: { home, away }, quarter: 1 }), { qos: 1 })

  const outcomes = () => feedback.filter((f) => f.clickItemId !== undefined && f.momentKey !== undefined)
  const outcomeOf = (momentKey: string) => outcomes().filter((f) => f.momentKey === momentKey)

  const status = async () => (await (await fetch(`${statusUrl}/status.json`)).json()) as StatusSnapshot

  it("presses before and after get their clip, presses while it was off get none, across a kill -9", async () => {
    await score(0, 0)
    await press(1)
    await score(2, 0)
    await press(2)
    const onBefore = (await event()).moments.map((m) => m.key)
    await eventually("the first two clips ready", async () => (onBefore.every((k) => outcomeOf(k).length === 1) ? true : undefined), { timeoutMs: 15_000, intervalMs: 100 })

    await control.setCameras(place, false)
    for (let n = 3; n <= 5; n++) {
      await score(2 + n, 0)
      await press(n)
    }
    const offKeys = (await event()).moments.slice(2).map((m) => m.key)
    // Their follow-ups are pending (no clip is decided before 10 s): the process dies now.
    expect(offKeys.flatMap(outcomeOf)).toEqual([])
    await daemon.kill9()
    const from = daemon.logs().length
    daemon.start()
    await daemon.waitForLog(/MQTT connected/, { from })
    await eventually("no clip for the three presses of the dark camera", async () =>
      (offKeys.every((k) => outcomeOf(k).length === 1) ? true : undefined), { timeoutMs: 30_000, intervalMs: 100 })
    // The office and the court see it: a problem line naming the court, and /healthz fails with it.
    const problem = await eventually("the problem line", async () => {
      const court = (await status()).places.find((p) => p.key === place)
      return court?.clipProblem ?? undefined
    }, { timeoutMs: 8_000, intervalMs: 200 })
    expect(problem.clicks).toBe(3)
    // The first dark press, minutes ago: the venue's time without a date.
    const problemText = `3 clicks without a clip since ${venueTime(problem.since)}: is the camera recording?`
    expect(problem.text).toBe(problemText)
    const health = await fetch(`${statusUrl}/healthz`)
    expect(health.status).toBe(503)
    // One reason of maybe two: after the restart the score topic may be quiet (NO DATA) too.
    expect((await health.text()).split("\n")).toContain(`${place}: ${problemText}`)

    await control.setCameras(place, true)
    await score(9, 2)
    await press(6)
    const after = (await event()).moments[5]!.key
    await eventually("the clip after the camera came back", async () => (outcomeOf(after).length === 1 ? true : undefined), { timeoutMs: 15_000, intervalMs: 100 })

    await eventually("the problem line cleared by the clip", async () => {
      const court = (await status()).places.find((p) => p.key === place)
      return court !== undefined && court.clipProblem === null && court.lastClick?.outcome === "clip-ready" ? true : undefined
    }, { timeoutMs: 8_000, intervalMs: 200 })
    expect(await (await fetch(`${statusUrl}/healthz`)).text()).not.toContain("without a clip")

    const moments = (await event()).moments
    // One moment per press: no click was sent twice, not even by the restart.
    expect(moments).toHaveLength(6)
    expect(new Set(moments.map((m) => m.metadata?.["clickId"])).size).toBe(6)
    for (const moment of moments) {
      const told = outcomeOf(moment.key)
      expect(told, `one outcome for ${moment.key}`).toHaveLength(1)
      if (offKeys.includes(moment.key)) {
        expect(told[0]).toMatchObject({ status: "no-clip" })
        expect(moment.videoClips).toEqual([])
      } else {
        expect(told[0]).toMatchObject({ status: "clip-ready", angles: 2, videoURL: moment.videoClips[0]!.videoURL })
      }
    }
    // The lamp by the court blinked for each clip, breathed for each press without one.
    await eventually("the lamp's six signals", async () => (lamp.length >= 6 ? true : undefined), { timeoutMs: 5_000, intervalMs: 50 })
    expect(lamp.filter((p) => p === `{"effect":"blink"}`)).toHaveLength(3)
    expect(lamp.filter((p) => p === `{"effect":"breathe"}`)).toHaveLength(3)
    // The score entries went as before: every state the board showed is in the event's score
    // stream (an entry in doubt at the kill is found there, when a click carried it, and not resent).
    const states = new Set((await event()).scoreStream.map((s) => `${String(s["left"])}-${String(s["right"])}`))
    expect([...states].sort()).toEqual(["0-0", "2-0", "5-0", "6-0", "7-0", "9-2"])
  }, 120_000)
})
