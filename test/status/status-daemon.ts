import { format } from "node:util"
import { Effect, Layer, Logger, ManagedRuntime, Redacted, Schema } from "effect"
import { Config } from "../../src/config/schema.ts"
import { daemonLayer } from "../../src/daemon/daemon-layer.ts"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { openWriter, type PtyWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { type Resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The real daemon in-process against the simulator, with its status server on
 * a free loopback port. Court 1 has a "lines" scoreboard on a pty (the test
 * writes `home-away Qn clock` lines) and, optionally, a serial button box on a
 * second pty; court 2's serial path does not exist, so it stays disconnected.
 */

/** Distinctive, so a grep of every output finds it if it ever leaks. */
export const token = "sb-status-SECRET-7c41e9d2"

export const basketballLine = (home: number, away: number, period = 1, clock = "09:58") => `${home}-${away} Q${period} ${clock}\r\n`

export interface StatusDaemonOptions {
  readonly courts: ReadonlyArray<"live" | "absent">
  readonly buttons?: boolean
  readonly mqtt?: { readonly url: string; readonly topicPrefix: string; readonly publishReadings?: boolean }
  readonly noDataAfterSeconds?: number
  /** The site's name in a fleet: a label on every metric series. */
  readonly venue?: string
}

export interface StatusDaemon {
  readonly url: string
  readonly control: SimulatorControl
  readonly logs: Array<string>
  /** Writes to court 1's scoreboard. */
  readonly scoreboard: PtyWriter
  /** Writes to court 1's button box (when configured). */
  readonly buttons: PtyWriter | undefined
  readonly stop: () => Promise<void>
}

let clients = 0

export const startStatusDaemon = async (res: Resources, options: StatusDaemonOptions): Promise<StatusDaemon> => {
  const courts = options.courts.map((_, i) => `court-${i + 1}`)
  const sim = await startSimulator({
    port: 0,
    requestsPerSecond: 20,
    burst: 5,
    seed: {
      organizations: [{
        key: "status-org",
        name: "Status tests",
        tokens: [token],
        places: courts.map((key, i) => ({ key, name: `Court ${i + 1}`, sport: "basketball" }))
      }]
    }
  })
  res.defer(() => sim.close())
  const control = new SimulatorControl(sim.url)
  await control.startEvent("court-1", { homeTeam: "Lakeside Lions", awayTeam: "Harbor Hawks", name: "League night" })

  const dir = tempDir("status", res)
  const boardPty = await startPtyPair(dir, "board")
  res.defer(() => boardPty.stop())
  const buttonPty = options.buttons === true ? await startPtyPair(dir, "buttons") : undefined
  if (buttonPty !== undefined) res.defer(() => buttonPty.stop())
  const port = await freePort()

  const config = Schema.decodeUnknownSync(Config)(daemonConfig({
    service: { baseUrl: sim.url, requestsPerSecond: 20, timeoutMs: 2_000 },
    stateDirectory: tempDir("status-state", res),
    // Not followed: a click's mark would turn from delivered to clip ready 10 s later, mid-test.
    // The clip states have tests of their own (status-clips*.test.ts).
    clips: { followUp: false },
    ...(options.venue === undefined ? {} : { venue: options.venue }),
    status: {
      listen: `127.0.0.1:${port}`,
      ...(options.noDataAfterSeconds === undefined ? {} : { noDataAfterSeconds: options.noDataAfterSeconds }),
      ...(options.mqtt?.publishReadings === true ? { publishReadings: true } : {})
    },
    ...(options.mqtt === undefined
      ? {}
      : { mqtt: { url: options.mqtt.url, topicPrefix: options.mqtt.topicPrefix, clientId: `status-test-${process.pid}-${++clients}` } }),
    ...(buttonPty === undefined ? {} : { buttons: [{ name: "courtside-box", type: "serial-buttons", serial: { path: buttonPty.daemonPath } }] }),
    places: options.courts.map((kind, i) => ({
      key: courts[i]!,
      name: `Court ${i + 1}`,
      sport: "basketball",
      scoreboard: {
        protocol: "lines",
        serial: { path: kind === "live" ? boardPty.daemonPath : `/dev/serial/by-id/usb-FTDI_absent-court-${i + 1}-if00-port0` },
        options: { pattern: "^(?<home>\\d+)-(?<away>\\d+) Q(?<period>\\d+) (?<clock>\\S+)$" }
      },
      ...(buttonPty !== undefined && i === 0 ? { actions: [{ source: "courtside-box", button: "1", gesture: "single", do: "highlight", team: "home" }] } : {})
    }))
  }))

  const logs: Array<string> = []
  const collector = Logger.make(({ logLevel, message }) =>
    logs.push(`${logLevel} ${format(...(Array.isArray(message) ? message : [message]))}`)
  )
  const runtime = ManagedRuntime.make(daemonLayer(config, Redacted.make(token)).pipe(Layer.provide(Logger.layer([collector]))))
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await runtime.dispose()
  }
  res.defer(stop)
  await runtime.runPromise(Effect.void)

  const url = `http://127.0.0.1:${port}`
  const connectedPorts = 1 + (buttonPty === undefined ? 0 : 1)
  await eventually("the daemon to open its ptys and serve its status page", async () => {
    if (logs.filter((l) => l.includes("serial port connected")).length < connectedPorts) return undefined
    return (await fetch(`${url}/healthz`).then((r) => r.status).catch(() => undefined)) === undefined ? undefined : true
  }, { timeoutMs: 8_000 })
  const scoreboard = openWriter(boardPty.writerPath)
  res.defer(() => scoreboard.close())
  const buttons = buttonPty === undefined ? undefined : openWriter(buttonPty.writerPath)
  if (buttons !== undefined) res.defer(() => buttons.close())
  return { url, control, logs, scoreboard, buttons, stop }
}

export const get = async (url: string) => {
  const response = await fetch(url)
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() }
}
