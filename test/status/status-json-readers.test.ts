import { createServer } from "node:http"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Schema } from "effect"
import { StatusJson } from "../../src/status/json/status-json.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { askDaemon } from "../../src/upgrade/daemon-status.ts"
import { lookAtSystem } from "../../src/upgrade/system-look.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { resources } from "../scoreboard/harness.ts"
import { startSteps, writeSetupConfig } from "../setup/steps-support.ts"
import { basketballLine, get, startStatusDaemon, type StatusDaemon } from "./status-daemon.ts"

/**
 * The readers of the running bridge's `/status.json` read what its status server serves: the
 * upgrade window (may a court be interrupted?), the upgrade guard (does it deliver?) and the setup
 * page (what the court shows after a save), each on a snapshot the real daemon made, with a live
 * event, a delivered entry and a delivered press. Field names they share with the snapshot come
 * from its Schema, so a rename fails the typecheck; this is the check that the values agree too.
 */

describe("the readers of /status.json on a real daemon's answer", () => {
  const res = resources()
  let daemon: StatusDaemon
  let listen: string
  let served: StatusSnapshot

  beforeAll(async () => {
    daemon = await startStatusDaemon(res, { courts: ["live", "absent"], buttons: true })
    listen = new URL(daemon.url).host
    let line = basketballLine(0, 0)
    const timer = setInterval(() => daemon.scoreboard.write(line), 100)
    res.defer(() => clearInterval(timer))
    line = basketballLine(3, 1)
    daemon.buttons!.write("BTN 1 single\r\n")
    const body = await eventually("court 1's entry and press delivered, its event known", async () => {
      const answer = (await get(`${daemon.url}/status.json`)).body
      const court = (JSON.parse(answer) as StatusSnapshot).places[0]!
      return court.lastPress?.answer?.state === "delivered" && court.lastEntry?.answer.state === "delivered" && court.event?.homeTeam != null
        ? answer
        : undefined
    }, { timeoutMs: 15_000 })
    served = Schema.decodeUnknownSync(Schema.fromJsonString(StatusJson))(body)
  }, 30_000)
  afterAll(() => res.release())

  it("the upgrade window sees each court's live event and waiting clicks", async () => {
    const answer = await Effect.runPromise(askDaemon(listen))
    expect(answer).toEqual({
      _tag: "Answered",
      places: served.places.map((p) => ({ key: p.key, liveEventKey: p.event?.key ?? null, clicksWaiting: p.queue.click, undosWaiting: p.queue.undo }))
    })
    if (answer._tag !== "Answered") return
    expect(answer.places[0]!.liveEventKey).toEqual(expect.any(String))
    expect(answer.places[1]).toMatchObject({ key: "court-2", liveEventKey: null })
  })

  it("the upgrade guard sees the bridge delivering: nothing held back, the last delivery at the newest accepted answer", async () => {
    const seen = await Effect.runPromise(lookAtSystem({ statusListen: listen, serviceUrl: `http://127.0.0.1:${await freePort()}`, systemd: false }))
    const court = served.places[0]!
    expect(seen.daemon).not.toBeNull()
    expect(seen.daemon!.heldBack).toBeNull()
    expect(seen.daemon!.lastDeliveredAt).toBeGreaterThanOrEqual(Math.max(court.lastEntry!.answer.at, court.lastPress!.answer!.at))
  })

  it("the setup page shows the court's light, reading, delivered entry and open event", async () => {
    const dir = tempDir("status-json-readers", res)
    writeSetupConfig(dir, daemonConfig({
      service: { baseUrl: "http://127.0.0.1:9", companyKey: "status-org" },
      stateDirectory: join(dir, "state"),
      status: { listen },
      places: [{ key: "court-1", sport: "basketball" }]
    }))
    const steps = await startSteps(dir)
    res.defer(() => steps.close())
    const view = (await steps.call("GET", "/api/daemon")).json as { reachable: boolean; places: ReadonlyArray<Record<string, unknown>> }
    const court = served.places[0]!
    expect(view.reachable).toBe(true)
    expect(view.places[0]).toMatchObject({
      key: "court-1",
      light: court.source.badge,
      detail: court.source.detail,
      link: `${court.source.link} ${court.source.target}`,
      lastEntry: { delivered: true, state: "delivered" },
      event: { open: true, homeTeam: court.event!.homeTeam, awayTeam: court.event!.awayTeam }
    })
    expect(view.places[0]!["reading"]).toMatch(/^3–1 · period 1/u)
    expect(view.places[1]).toMatchObject({ key: "court-2", light: "DISCONNECTED", event: { open: null } })
  })

  it("an older or newer bridge's answer reads the same: fields a reader does not read may be missing, unknown ones are ignored", async () => {
    const other = {
      ...served,
      firmware: "next",
      places: served.places.map(({ race: _race, decoder: _decoder, ...place }) => ({
        ...place,
        camera: { angles: 2 },
        queue: { score: place.queue.score, click: place.queue.click, undo: place.queue.undo, spool: 0 },
        event: place.event === null ? null : { key: place.event.key, homeTeam: place.event.homeTeam, awayTeam: place.event.awayTeam }
      }))
    }
    const server = createServer((_req, response) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(other)))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    res.defer(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const address = server.address()
    const at = `127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    expect(await Effect.runPromise(askDaemon(at))).toEqual(await Effect.runPromise(askDaemon(listen)))
    const seen = await Effect.runPromise(lookAtSystem({ statusListen: at, serviceUrl: `http://127.0.0.1:${await freePort()}`, systemd: false }))
    expect(seen.daemon).not.toBeNull()
  })
})
