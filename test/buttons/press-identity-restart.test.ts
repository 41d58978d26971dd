import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { clicksOn, place, sport, startBroker, startService, token } from "../clicks-e2e/harness.ts"
import { faultDaemon } from "../../scripts/support/fault-daemon.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { daemonConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"

/**
 * A Shelly Button1 (Gen1) re-publishes its last `input_event`, same `event_cnt`, some seconds
 * later (with its status updates). The daemon is a real process killed with -9 between the press
 * and the re-publish: the process that comes back knows the count only from its outbox, and must
 * make no second highlight of the press, while the next count is a press like any other.
 */
describe("a Shelly Gen1 press re-published after a kill -9 of the daemon", () => {
  const res = resources()
  afterEach(() => res.release())

  const device = "shellybutton1-E8DB84AA1B2C"
  const buttonTopic = `shellies/${device}/input_event/0`
  /** Input 9 of another device: no action is mapped to it, so a press there is only logged (debug). */
  const probeTopic = "shellies/probe/input_event/9"
  const gen1 = (count: number) => JSON.stringify({ event: "S", event_cnt: count })

  it("makes no second click after the restart; the next event_cnt makes one", async () => {
    const dir = tempDir("press-identity-restart", res)
    const service = await startService(res, 20)
    const { eventKey } = await service.control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: "match" })
    const brokerDir = join(dir, "broker")
    mkdirSync(brokerDir)
    const broker = await startBroker(res, brokerDir)
    const stateDirectory = join(dir, "state")
    mkdirSync(stateDirectory)
    const statusUrl = `127.0.0.1:${await freePort()}`
    const configFile = writeConfig(join(dir, "scorebridge.yaml"), daemonConfig({
      service: { baseUrl: service.url, requestsPerSecond: 20, timeoutMs: 2_000 },
      stateDirectory,
      status: { listen: statusUrl },
      // Debug: the probe's "no action configured" line shows the new process is taking presses.
      log: { level: "debug" },
      mqtt: { url: broker.mosquitto.url, clientId: `press-identity-daemon-${process.pid}` },
      buttons: [{ name: "remote", type: "shelly", mqtt: { topics: ["shellies/+/input_event/+"] } }],
      places: [{ key: place, sport, actions: [{ source: "remote", button: 0, gesture: "single", do: "highlight", team: "home" }] }]
    }))
    const daemon = faultDaemon(configFile, join(dir, "daemon.log"), { SCOREBRIDGE_TOKEN: token })
    res.defer(() => daemon.kill9())

    const publish = (topic: string, payload: string) => broker.peer.publishAsync(topic, payload, { qos: 1 })
    let probes = 0
    /** Probes until this run of the daemon logs one: its subscription is live and its button source reads. */
    const untilTakingPresses = async (from: number) => {
      await eventually("the daemon to take presses", async () => {
        await publish(probeTopic, gen1(++probes))
        return daemon.logs().slice(from).some((l) => l.msg.includes("single on remote/9: no action configured")) ? true : undefined
      }, { timeoutMs: 15_000, intervalMs: 200 })
    }
    /** The log line of what became of the next `single` on input 0 after `from`: a click, or a repeat. */
    const handled = (from: number) => daemon.waitForLog(/single on remote\/0 (→ highlight|is a repeat)/, { from })
    const accepted = async () => {
      const clicks = (await clicksOn(service, eventKey)).filter((r) => r.status === 200)
      return clicks.map((r) => (r.body as { readonly metadata: { readonly clickId: string }; readonly timeStamp: number }))
    }
    const moments = async () => (await service.control.state()).events.find((e) => e.key === eventKey)!.moments.length

    const started = Date.now()
    daemon.start()
    await untilTakingPresses(0)
    await publish(buttonTopic, gen1(7))
    expect((await handled(0)).msg).toMatch(/→ highlight #\d+ on its way/)
    await eventually("the press's click at the simulator", async () => ((await accepted()).length === 1 ? true : undefined), { timeoutMs: 10_000 })

    await daemon.kill9()
    const from = daemon.logs().length
    daemon.start()
    await untilTakingPresses(from)

    // The re-publish: the same message, some seconds later, to a process that never saw count 7.
    await publish(buttonTopic, gen1(7))
    const repeat = await handled(from)
    expect(repeat.msg).toContain("is a repeat of a press already handled (device press 7, re-published): nothing made again")
    const metrics = await (await fetch(`http://${statusUrl}/metrics`)).text()
    expect(metrics).toMatch(new RegExp(`scorebridge_presses_total\\{[^}]*result="repeat"[^}]*\\} 1\\b`))

    // A real press: the next count.
    const nextAt = Date.now()
    await publish(buttonTopic, gen1(8))
    expect((await daemon.waitForLog(/single on remote\/0 → highlight/, { from: daemon.logs().indexOf(repeat) + 1 })).msg).toMatch(/on its way/)
    const clicks = await eventually("the next press's click at the simulator", async () => {
      const all = await accepted()
      return all.some((c) => c.timeStamp >= nextAt) ? all : undefined
    }, { timeoutMs: 10_000 })
    // Lanes deliver in order: a click made of the re-publish would have come before this one.
    expect(new Set(clicks.map((c) => c.metadata.clickId)).size, "distinct clicks at the simulator").toBe(2)
    expect(clicks.length, "click requests accepted").toBe(2)
    expect(await moments(), "moments of the event").toBe(2)
    console.info(`press identity across kill -9: ${Date.now() - started} ms from the first start`)
  }, 60_000)
})
