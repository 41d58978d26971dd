import { join } from "node:path"
import { format } from "node:util"
import { Effect, Layer, Logger, ManagedRuntime, Redacted, Schema } from "effect"
import { expect } from "vitest"
import { Config } from "../../src/config/schema.ts"
import { daemonLayer } from "../../src/daemon/daemon-layer.ts"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { type RunningSimulator, type SimulatorSeed, startSimulator } from "../../simulator/index.ts"
import { type FaultDaemon, faultDaemon } from "../../scripts/support/fault-daemon.ts"
import { type DaemonConfig, daemonConfig, type PlaceConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type Resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import type { SimulatedConsole } from "./consoles/console.ts"
import type { Expected, Step } from "./matches/match.ts"
import { type PlayClock, wallClock } from "./play-clock.ts"

export { type Resources, resources } from "../support/resources.ts"

/**
 * The real daemon in-process (`daemonLayer` in a ManagedRuntime) against the
 * simulator on loopback, fed by a simulated console; and the checks that what
 * the simulator received is exactly the expected entries, in order, stamped
 * at the receipt of the write that showed them (see `stampToleranceMs`).
 */

export const places = {
  tennis: "tennis-court",
  volleyball: "volley-court",
  basketball: "basket-court",
  football: "football-field",
  unihockey: "floorball-court",
  handball: "handball-court",
  hockey: "ice-rink",
  swimming: "pool"
} as const
export type Sport = keyof typeof places

const token = "scoreboard-token"

const seed: SimulatorSeed = {
  organizations: [{
    key: "scoreboard-org",
    name: "Scoreboard tests",
    tokens: [token],
    places: (Object.keys(places) as Array<Sport>).map((sport) => ({ key: places[sport], name: sport, sport }))
  }]
}

/** High enough that a 150-point match drains in a few seconds; the daemon is told the same limit. */
const requestsPerSecond = 50
/**
 * How late after its write a frame's entry may be stamped. On a quiet machine
 * the lag stays under ~20 ms. On 2 cores shared with other tests it sometimes
 * is not: socat (which carries the bytes between the pty ends) or this process
 * goes unscheduled, and the daemon's outbox append (synchronous SQLite with
 * fsync, on the same event loop that stamps received bytes) was measured at
 * p99 69 ms, max 374 ms under disk contention. So: every entry within
 * `stampLimitMs`, and at least `onTimeShare` of them within `stampToleranceMs`.
 * An entry stamped with an earlier frame's time, or when it was stored or sent
 * after some delay, still fails.
 */
export const stampToleranceMs = 50
const stampLimitMs = 1_000
const onTimeShare = 0.9

export type Link =
  | { readonly serial: string }
  | { readonly mqtt: { readonly url: string; readonly topic: string } }
  | { readonly tcp: { readonly listen: string } | { readonly connect: string } }
  | { readonly udp: { readonly listen: string; readonly from?: string } }

export interface BridgeOptions {
  /**
   * Run `bin/scorebridge run` as a real process (as systemd does) instead of the daemon's layer
   * in this process: for behaviour of the process's own sockets and stamps under another event loop.
   */
  readonly process?: boolean
  /** More of the place's config (e.g. autoHighlights, clicks, actions, teams), beside its key, sport and scoreboard. */
  readonly place?: Partial<PlaceConfig>
  /** More top-level config (e.g. buttons, mqtt), beside service, stateDirectory, status and places. */
  readonly config?: Partial<Omit<DaemonConfig, "service" | "places">>
}

/** The place's scoreboard block for `link`. */
const scoreboardLinkConfig = (link: Link) =>
  "serial" in link ? { serial: { path: link.serial } } : "mqtt" in link ? { mqtt: { topics: [link.mqtt.topic] } } : link

let clients = 0

export interface Bridge {
  readonly place: string
  readonly control: SimulatorControl
  readonly eventKey: string
  /** Everything the daemon logged, as `<level> <message>`. */
  readonly logs: Array<string>
  /** Outbox items of the place by state. */
  readonly outboxStates: () => Promise<Readonly<Record<string, number>>>
  /** How often the daemon said its serial port was (re)connected. */
  readonly serialConnects: () => number
  /** The daemon process, when it runs as one (`BridgeOptions.process`). */
  readonly daemon?: FaultDaemon
  /** Runs a read of the daemon's outbox (beside the running process, when it runs as one). */
  readonly readOutbox: <A, E>(read: Effect.Effect<A, E, Outbox>) => Promise<A>
}

/** Starts the simulator with an event live on the sport's place, then the daemon configured for `console` on `link`. */
export const startBridge = async (
  res: Resources,
  sport: Sport,
  console: SimulatedConsole<never>,
  link: Link,
  options: BridgeOptions = {}
): Promise<Bridge> => {
  const place = places[sport]
  const sim: RunningSimulator = await startSimulator({ port: 0, requestsPerSecond, burst: 1, seed })
  res.defer(() => sim.close())
  const control = new SimulatorControl(sim.url)
  // Before any frame: the service drops scores of a place with no event running.
  const { eventKey } = await control.startEvent(place, { homeTeam: "Home", awayTeam: "Away", name: `${sport} e2e` })

  const stateDirectory = tempDir("scoreboard-state", res)
  const rawConfig = daemonConfig({
    service: { baseUrl: sim.url, requestsPerSecond, timeoutMs: 2_000 },
    stateDirectory,
    // Tests run side by side: the status page must not take the default port.
    status: { listen: `127.0.0.1:${await freePort()}` },
    ...("mqtt" in link ? { mqtt: { url: link.mqtt.url, clientId: `scoreboard-e2e-${process.pid}-${++clients}` } } : {}),
    ...options.config,
    places: [{
      key: place,
      sport,
      scoreboard: { protocol: console.protocol, ...scoreboardLinkConfig(link), options: console.options },
      ...options.place
    }]
  })
  const running = options.process === true
    ? startDaemonProcess(res, rawConfig, stateDirectory)
    : await startDaemonInProcess(res, Schema.decodeUnknownSync(Config)(rawConfig))

  const outboxStates = () =>
    running.outbox(Effect.gen(function*() {
      const counts = yield* (yield* wholeOutbox).counts
      const byState: Record<string, number> = {}
      for (const c of counts) if (c.place === place) byState[c.state] = (byState[c.state] ?? 0) + c.count
      return byState
    }))
  const serialConnects = () => running.logs().filter((line) => line.includes("serial port connected")).length
  return {
    place,
    control,
    eventKey,
    get logs() {
      return running.logs()
    },
    outboxStates,
    serialConnects,
    readOutbox: running.outbox,
    ...(running.daemon === undefined ? {} : { daemon: running.daemon })
  }
}

interface RunningDaemon {
  readonly logs: () => Array<string>
  /** Runs a read of the daemon's outbox. */
  readonly outbox: <A, E>(read: Effect.Effect<A, E, Outbox>) => Promise<A>
  readonly daemon?: FaultDaemon
}

const startDaemonInProcess = async (res: Resources, config: Config): Promise<RunningDaemon> => {
  const logs: Array<string> = []
  const collector = Logger.make(({ logLevel, message }) =>
    logs.push(`${logLevel} ${format(...(Array.isArray(message) ? message : [message]))}`)
  )
  const runtime = ManagedRuntime.make(daemonLayer(config, Redacted.make(token)).pipe(Layer.provide(Logger.layer([collector]))))
  res.defer(() => runtime.dispose())
  // Building the layer starts the place's pipeline.
  await runtime.runPromise(Effect.void)
  return { logs: () => logs, outbox: (read) => runtime.runPromise(read) }
}

const pinoLevels: Readonly<Record<number, string>> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" }

const startDaemonProcess = (res: Resources, rawConfig: DaemonConfig, stateDirectory: string): RunningDaemon => {
  const dir = tempDir("scoreboard-process", res)
  // The same config the in-process variant decodes.
  const configFile = writeConfig(join(dir, "scorebridge.yaml"), rawConfig)
  const daemon = faultDaemon(configFile, join(dir, "daemon.log"), { SCOREBRIDGE_TOKEN: token })
  daemon.start()
  res.defer(() => daemon.stop())
  // The test reads the outbox as `scorebridge outbox` does, beside the running daemon; opened on first use, after the daemon made it.
  let runtime: ManagedRuntime.ManagedRuntime<Outbox, unknown> | undefined
  res.defer(() => runtime?.dispose())
  return {
    logs: () => daemon.logs().map((line) => `${pinoLevels[line.level] ?? line.level} ${line.msg}`),
    outbox: (read) => (runtime ??= ManagedRuntime.make(Outbox.layer({ stateDirectory }))).runPromise(read),
    daemon
  }
}

export const waitForSerialConnects = (bridge: Bridge, count: number) =>
  eventually(`the daemon to have opened its serial port ${count} time(s)`, () =>
    bridge.serialConnects() >= count ? true : undefined, { timeoutMs: 8_000 })

/** Write times (ms) of each step; a step written several times (a probe) has several. */
export type WriteTimes = Array<Array<number>>

/**
 * Shows `steps[from, to)` on the console: encodes each board, stamps the write,
 * sends it, and waits `gapMs` before the next one.
 */
export const play = async <B>(
  steps: ReadonlyArray<Step<B>>,
  console: SimulatedConsole<B>,
  send: (payload: Uint8Array | string) => unknown,
  written: WriteTimes,
  { from = 0, to = steps.length, gapMs = 20, clock = wallClock }: { from?: number; to?: number; gapMs?: number; clock?: PlayClock } = {}
): Promise<void> => {
  for (let i = from; i < to; i++) {
    const payload = console.encode(steps[i]!.board)
    ;(written[i] ??= []).push(clock.now())
    await send(payload)
    await clock.sleep(gapMs)
  }
}

interface Received {
  readonly body: Readonly<Record<string, unknown>> & { readonly timeStamp: number }
  readonly eventKey: unknown
}

/** Score entries the simulator accepted for the place, in arrival order. */
const acceptedScores = async (bridge: Bridge): Promise<Array<Received>> =>
  (await bridge.control.requests({ method: "POST", pathPrefix: `/public/places/${bridge.place}/score`, status: 200 }))
    .map((r) => ({ body: r.body as Received["body"], eventKey: (r.response as { eventKey?: unknown } | null)?.eventKey }))

/**
 * Waits until the daemon has delivered what it stored (outbox drained, at least
 * as many entries as expected), then checks the simulator got exactly the
 * expected entries in order, each on the running event, each stamped no earlier
 * than the write of the board that first showed it and (nearly all) at most
 * 50 ms later.
 */
export const expectDelivered = async <E>(
  bridge: Bridge,
  expected: ReadonlyArray<Expected<E>>,
  written: WriteTimes,
  timeoutMs = 20_000
): Promise<void> => {
  // No throw on timeout: the comparison below says what is missing or extra.
  await eventually("the entries to reach the simulator and the outbox to drain", async () => {
    const states = await bridge.outboxStates()
    const stored = Object.values(states).reduce((n, c) => n + c, 0)
    if (stored < expected.length || (states["pending"] ?? 0) > 0) return undefined
    return (await acceptedScores(bridge)).length >= expected.length ? true : undefined
  }, { timeoutMs, intervalMs: 100 }).catch(() => undefined)

  const received = await acceptedScores(bridge)
  const withoutTime = received.map(({ body: { timeStamp: _t, ...entry } }) => entry)
  expect(withoutTime, `entries received by the simulator (daemon logs:\n${bridge.logs.slice(-20).join("\n")})`)
    .toEqual(expected.map((e) => e.entry))
  expect(await bridge.outboxStates(), "outbox items by state").toEqual({ delivered: expected.length })
  expect(received.filter((r) => r.eventKey !== bridge.eventKey), "entries not on the running event").toEqual([])

  const lags = expected.map(({ step }, i) => {
    const stamp = received[i]!.body.timeStamp
    const writes = (written[step] ?? []).filter((at) => at <= stamp)
    return { entry: i, step, stamp, writes: written[step], lag: writes.length === 0 ? Number.NaN : stamp - Math.max(...writes) }
  })
  expect(lags.filter(({ lag }) => !(lag >= 0 && lag <= stampLimitMs)), `entries stamped before their frame's write or over ${stampLimitMs} ms after it`)
    .toEqual([])
  const late = lags.filter(({ lag }) => lag > stampToleranceMs)
  expect(late.length, `entries stamped over ${stampToleranceMs} ms after their frame's write: ${JSON.stringify(late)}`)
    .toBeLessThanOrEqual(Math.floor(expected.length * (1 - onTimeShare)))
}

/**
 * Checks the model itself: a clock-only step changes no entry and every other
 * step does, so the test really writes frames that must, and must not, make
 * entries.
 */
export const expectModelShape = <B>(steps: ReadonlyArray<Step<B>>, expected: ReadonlyArray<Expected<unknown>>) => {
  const scoring = steps.flatMap((s, i) => (s.tick ? [] : [i]))
  expect(expected.map((e) => e.step)).toEqual(scoring)
  expect(scoring.length).toBeLessThan(steps.length)
}
