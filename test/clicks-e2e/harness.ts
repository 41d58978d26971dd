import { chmodSync, writeFileSync } from "node:fs"
import { execFileSync } from "node:child_process"
import { type FileHandle, open } from "node:fs/promises"
import { join } from "node:path"
import { format } from "node:util"
import { Effect, Layer, Logger, ManagedRuntime, Redacted, References, Schema } from "effect"
import { connectAsync, type MqttClient } from "mqtt"
import { Config } from "../../src/config/schema.ts"
import { daemonLayer } from "../../src/daemon/daemon-layer.ts"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { type RecordedRequest, SimulatorControl } from "../../simulator/control-client.ts"
import { type SimulatorSeed, startSimulator } from "../../simulator/index.ts"
import type { Resources } from "../scoreboard/harness.ts"
import type { DaemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { keyEdge as kernelKeyEdge } from "../support/input-event-record.ts"
import { sleep } from "../support/sleep.ts"

/**
 * The real daemon in-process against the simulator on loopback, with courtside
 * buttons fed through real parts: mosquitto, socat ptys, FIFOs standing in for
 * an input device and for gpiomon's output.
 */

export const token = "clicks-token"
export const place = "court-1"
export const sport = "basketball"

/** Minutes-old knowledge of the live event would hide the refresh: the tests want it re-read quickly. */
export const eventRefreshMs = 300

export interface Service {
  readonly url: string
  readonly control: SimulatorControl
}

/** The simulator with one organization owning `place`; the rate limit is the token's, as the daemon is told. */
export const startService = async (res: Resources, requestsPerSecond: number): Promise<Service> => {
  const seed: SimulatorSeed = {
    organizations: [{ key: "clicks-org", name: "Clicks tests", tokens: [token], places: [{ key: place, name: "Court 1", sport }] }]
  }
  const sim = await startSimulator({ port: 0, requestsPerSecond, burst: 1, seed })
  res.defer(() => sim.close())
  return { url: sim.url, control: new SimulatorControl(sim.url) }
}

export interface Broker {
  readonly mosquitto: Mosquitto
  /** A button or display on the broker, with a clean session. */
  readonly peer: MqttClient
}

let clients = 0
export const nextClientId = (role: string) => `clicks-e2e-${role}-${process.pid}-${++clients}`

export const startBroker = async (res: Resources, dir: string): Promise<Broker> => {
  const mosquitto = await startMosquitto(dir)
  res.defer(() => mosquitto.stop())
  const peer = await connectAsync(mosquitto.url, { clientId: nextClientId("peer"), clean: true })
  res.defer(() => peer.endAsync(true))
  return { mosquitto, peer }
}

export interface Daemon {
  /** Everything the daemon logged, debug included, as `<level> <message>`. */
  readonly logs: Array<string>
  /** Outbox items of `place` by kind and state, e.g. `{ "score/pending": 27 }`. */
  readonly outbox: () => Promise<Readonly<Record<string, number>>>
}

/** Decodes `config` as the daemon would read it and runs the whole daemon until the test's resources are released. */
export const startDaemon = async (res: Resources, config: DaemonConfig): Promise<Daemon> => {
  const decoded = Schema.decodeUnknownSync(Config)(config)
  const logs: Array<string> = []
  const collector = Logger.make(({ logLevel, message }) =>
    logs.push(`${logLevel} ${format(...(Array.isArray(message) ? message : [message]))}`)
  )
  const runtime = ManagedRuntime.make(
    daemonLayer(decoded, Redacted.make(token), { eventRefreshMs }).pipe(
      Layer.provide(Logger.layer([collector])),
      // Debug: a press with no action configured is the probe that shows a subscription is live.
      Layer.provide(Layer.succeed(References.MinimumLogLevel, "Debug"))
    )
  )
  res.defer(() => runtime.dispose())
  await runtime.runPromise(Effect.void)
  const outbox = () =>
    runtime.runPromise(Effect.gen(function*() {
      const byKind: Record<string, number> = {}
      for (const c of yield* (yield* wholeOutbox).counts) {
        if (c.place === place) byKind[`${c.kind}/${c.state}`] = (byKind[`${c.kind}/${c.state}`] ?? 0) + c.count
      }
      return byKind
    }))
  return { logs, outbox }
}

export const logged = (daemon: Daemon, text: string) => daemon.logs.filter((line) => line.includes(text)).length

/**
 * Publishes `probe` until the daemon logs `heard`: its subscription is then in
 * place at the broker, and every message published before the probe's answer
 * has been handled.
 */
export const untilHeard = async (daemon: Daemon, heard: string, probe: () => Promise<unknown>) => {
  const before = logged(daemon, heard)
  await eventually(`the daemon to log "${heard}"`, async () => {
    await probe()
    await sleep(100)
    return logged(daemon, heard) > before ? true : undefined
  }, { timeoutMs: 8_000 })
}

export const waitForLog = (daemon: Daemon, text: string, count = 1) =>
  eventually(`the daemon to log "${text}" ${count} time(s)`, () => (logged(daemon, text) >= count ? true : undefined), { timeoutMs: 8_000 })

/** Clicks the simulator received for `eventKey`, in arrival order. */
export const clicksOn = (service: Service, eventKey: string): Promise<Array<RecordedRequest>> =>
  service.control.requests({ method: "POST", pathPrefix: `/public/events/${eventKey}/clicks` })

export const waitForClicks = (service: Service, eventKey: string, count: number, timeoutMs = 5_000) =>
  eventually(`${count} click(s) at the simulator`, async () => {
    const clicks = await clicksOn(service, eventKey)
    return clicks.length >= count ? clicks : undefined
  }, { timeoutMs, intervalMs: 10 })

/** A FIFO and the test's writing end, opened once the daemon opens the other end (the open waits for it). */
export const fifo = (res: Resources, dir: string, name: string) => {
  const path = join(dir, name)
  execFileSync("mkfifo", [path])
  let writer: FileHandle | undefined
  // Registered before the daemon starts, so it runs after the daemon is disposed: the
  // daemon must not be left reopening a FIFO whose writer went away.
  res.defer(() => writer?.close())
  return {
    path,
    open: async () => {
      writer = await open(path, "w")
      return writer
    }
  }
}

/** A gpiomon that answers `--version` like libgpiod v2 and otherwise prints what the test writes to `edges`. */
export const gpiomonStandIn = (dir: string, edges: string) => {
  const path = join(dir, "gpiomon")
  writeFileSync(path, [
    "#!/bin/sh",
    `if [ "$1" = "--version" ]; then echo "gpiomon (libgpiod) v2.1.3"; exit 0; fi`,
    `exec cat "${edges}"`,
    ""
  ].join("\n"))
  chmodSync(path, 0o755)
  return path
}

/** gpiomon v2's line for an edge with `-E realtime`: UTC with nanoseconds, then the chip and offset. */
export const gpiomonLine = (ms: number, edge: "rising" | "falling", line: number) =>
  `${new Date(ms).toISOString().replace("Z", "456789Z")}\t${edge}\tgpiochip0 ${line}\n`

/** A key edge as the kernel reports it (see test/support/input-event-record.ts). */
export const keyEdge = (ms: number, code: number, pressed: boolean) => kernelKeyEdge(ms, code, pressed ? 1 : 0)

export const utf8Bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8")
