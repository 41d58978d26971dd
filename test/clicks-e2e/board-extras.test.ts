import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { frame } from "../../adapters/stramatel-452m/encode.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, type PtyWriter, startPtyPair } from "../../scripts/support/pty.ts"
import {
  type Broker,
  clicksOn,
  type Daemon,
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
 * What a board shows beside the score reaches a click's overlay: a Stramatel basketball frame
 * (team fouls, time-outs) over a pty, a remote's press over mosquitto, the click at the simulator.
 */

const res = resources()
const remoteTopic = "zigbee2mqtt/court1-remote"
const basketball = 0x33
const overlay = {
  templateSource: "https://cdn.example.com/court1/scorebug.html",
  values: { fouls: "{{homeFouls}}-{{awayFouls}}", timeouts: "TO {{teamTimeouts}}", penalties: "[{{homePenalties}}]" },
  widthPercentOfWidth: 30
}

let service: Service
let broker: Broker
let daemon: Daemon
let eventKey: string
let board: PtyWriter

const press = () => broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })

beforeAll(async () => {
  const dir = tempDir("board-extras", res)
  service = await startService(res, 20)
  broker = await startBroker(res, dir)
  ;({ eventKey } = await service.control.startEvent(place, { homeTeam: "Lakers", awayTeam: "Celtics" }))
  const pty = await startPtyPair(dir, "board")
  res.defer(() => pty.stop())
  daemon = await startDaemon(res, daemonConfig({
    service: { baseUrl: service.url, requestsPerSecond: 20, timeoutMs: 2_000 },
    stateDirectory: tempDir("board-extras-state", res),
    mqtt: { url: broker.mosquitto.url, clientId: nextClientId("daemon") },
    buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } }],
    places: [{
      key: place,
      sport,
      scoreboard: { protocol: "stramatel-452m", serial: { path: pty.daemonPath } },
      actions: [{ source: "remote", button: 1, gesture: "single", do: "highlight", team: "home" }],
      clicks: { beforeSeconds: 8, afterSeconds: 4 },
      teams: { home: { overlay } }
    }]
  }))
  await waitForLog(daemon, "serial port connected")
  board = openWriter(pty.writerPath)
  res.defer(() => board.close())
  await untilHeard(daemon, "single on remote/probe: no action configured", () =>
    broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "probe_single" }), { qos: 1 }))
}, 30_000)

afterAll(() => res.release())

const overlayValuesOfNextClick = async (): Promise<Record<string, string>> => {
  const before = (await clicksOn(service, eventKey)).length
  await press()
  const clicks = await waitForClicks(service, eventKey, before + 1)
  return (clicks[before]!.body as { overlays: Array<{ values: Record<string, string> }> }).overlays[0]!.values
}

describe("a click's overlay shows what the board shows beside the score", () => {
  it("team fouls and time-outs as the board last showed them; penalties empty on a board without them", async () => {
    board.write(frame(basketball, { home: 41, away: 38, period: 3, clock: "4:12", teamFouls: [4, 2], timeouts: [1, 3] }))
    await eventually("the score entry", async () =>
      (await service.control.requests({ method: "POST", pathPrefix: `/public/places/${place}/score`, status: 200 })).length > 0 ? true : undefined)
    expect(await overlayValuesOfNextClick()).toEqual({ fouls: "4-2", timeouts: "TO 1", penalties: "[]" })

    // A foul and a time-out, no score change: no entry, but the next click shows them.
    board.write(frame(basketball, { home: 41, away: 38, period: 3, clock: "3:58", teamFouls: [5, 2], timeouts: [2, 3] }))
    await eventually("the new fouls in the next click", async () => {
      const values = await overlayValuesOfNextClick()
      return values["fouls"] === "5-2" ? values : undefined
    }, { timeoutMs: 8_000 }).then((values) => expect(values).toEqual({ fouls: "5-2", timeouts: "TO 2", penalties: "[]" }))
    const scores = await service.control.requests({ method: "POST", pathPrefix: `/public/places/${place}/score`, status: 200 })
    expect(scores).toHaveLength(1)
  })
})
