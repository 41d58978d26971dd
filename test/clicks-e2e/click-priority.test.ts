import { afterEach, describe, expect, it } from "vitest"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { nextClientId, place, sport, startBroker, startDaemon, startService, untilHeard, waitForClicks, waitForLog } from "./harness.ts"

const requestsPerSecond = 2
/** One rate slot at 2/s, plus the round trip through mosquitto, the outbox and loopback HTTP. */
const withinMs = 650
const backlog = 30

describe("a click while score entries are queued", () => {
  const res = resources()
  afterEach(() => res.release())

  it(`reaches the simulator within one rate slot while ${backlog} entries wait, long before they drain`, async () => {
    const dir = tempDir("clicks-priority", res)
    const service = await startService(res, requestsPerSecond)
    const broker = await startBroker(res, dir)
    const { eventKey } = await service.control.startEvent(place, { homeTeam: "Home", awayTeam: "Away" })
    const board = await startPtyPair(dir, "board")
    res.defer(() => board.stop())
    const remoteTopic = "zigbee2mqtt/court1-remote"

    const daemon = await startDaemon(res, daemonConfig({
      service: { baseUrl: service.url, requestsPerSecond, timeoutMs: 2_000 },
      stateDirectory: tempDir("clicks-priority-state", res),
      mqtt: { url: broker.mosquitto.url, clientId: nextClientId("daemon") },
      buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [remoteTopic] } }],
      places: [{
        key: place,
        sport,
        scoreboard: { protocol: "lines", serial: { path: board.daemonPath }, options: { pattern: "^S (?<home>\\d+) (?<away>\\d+) (?<period>\\d+)$" } },
        actions: [{ source: "remote", button: 1, gesture: "single", do: "highlight", team: "home" }],
        clicks: { beforeSeconds: 10, afterSeconds: 5 }
      }]
    }))
    // The click goes straight to the live event only once the daemon knows it; the refresh looks it up at start.
    await eventually("the daemon to learn the live event", async () =>
      (await service.control.requests({ method: "GET", pathPrefix: `/public/places/${place}/activeEventKey`, status: 200 })).length > 0
        ? true
        : undefined)
    await untilHeard(daemon, "single on remote/probe: no action configured", () =>
      broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "probe_single" }), { qos: 1 }))
    await waitForLog(daemon, "serial port connected")

    const writer = openWriter(board.writerPath)
    res.defer(() => writer.close())
    for (let home = 1; home <= backlog; home++) {
      writer.write(`S ${home} 0 1\n`)
      // Distinct receive times: each line is its own change, stamped apart.
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await eventually(`${backlog} score entries in the outbox`, async () => {
      const outbox = await daemon.outbox()
      return (outbox["score/pending"] ?? 0) + (outbox["score/delivered"] ?? 0) === backlog ? outbox : undefined
    })

    // Into the steady drain of the backlog: every slot now has a score entry waiting for it.
    await new Promise((resolve) => setTimeout(resolve, 700))
    const publishedAt = Date.now()
    await broker.peer.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
    const [click] = await waitForClicks(service, eventKey, 1, 3_000)

    const scores = await service.control.requests({ method: "POST", pathPrefix: `/public/places/${place}/score` })
    const eventScores = await service.control.requests({ method: "POST", pathPrefix: `/public/events/${eventKey}/score` })
    const scoresBefore = [...scores, ...eventScores].filter((r) => r.at < click!.at).length
    expect(click!.at - publishedAt, "ms from the MQTT publish to the click at the simulator").toBeLessThanOrEqual(withinMs)
    expect(click!.status).toBe(200)
    expect(scoresBefore, "score entries sent before the click").toBeLessThan(backlog / 2)
    expect((await daemon.outbox())["score/pending"], "score entries still waiting").toBeGreaterThan(backlog / 2)
  })
})
