import { createSocket, type Socket as UdpSocket } from "node:dgram"
import { connect, createServer, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { bodetFloorball } from "./consoles/bodet.ts"
import type { SimulatedConsole } from "./consoles/console.ts"
import { daktronicsBasketball, type Render, tennisFields, volleyballFields } from "./consoles/daktronics.ts"
import { rtdFieldConsole } from "./consoles/daktronics-fields.ts"
import { fairplayConsole } from "./consoles/fairplay.ts"
import { jsonBasketball } from "./consoles/text.ts"
import { stramatelBasketball } from "./consoles/stramatel.ts"
import { type Bridge, expectDelivered, expectModelShape, play, type Resources, resources, type Sport, startBridge, type WriteTimes } from "./harness.ts"
import { playFields } from "./field-play.ts"
import { type BasketballBoard, basketballEntry, basketballQuarter } from "./matches/basketball-quarter.ts"
import { floorballEntry, floorballMatch } from "./matches/floorball-match.ts"
import { hockeyEntry, hockeyGame } from "./matches/hockey-game.ts"
import { type Expected, expectedEntries, type Step } from "./matches/match.ts"
import { tennisEntry } from "./matches/tennis-set.ts"
import { tennisSetWon, volleyballSetWonAndNextSet } from "./matches/turning-points.ts"
import { volleyballEntry } from "./matches/volleyball-match.ts"
import { sleep } from "../support/sleep.ts"

/**
 * Every protocol works over every link: consoles on real loopback sockets, the daemon reading
 * them (as a real process where the socket is its own), the simulator checking what arrives.
 */

const logsMatching = (bridge: Bridge, pattern: RegExp) => bridge.logs.filter((line) => pattern.test(line)).length

const waitForLog = (bridge: Bridge, pattern: RegExp, count = 1) =>
  eventually(`${count} daemon log line(s) matching ${pattern}`, () => (logsMatching(bridge, pattern) >= count ? true : undefined), {
    timeoutMs: 15_000
  }).catch((e: Error) => Promise.reject(new Error(`${e.message}; daemon logs:\n${bridge.logs.slice(-30).join("\n")}`)))

const tcpConsole = (res: Resources, port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, () => resolve(socket))
    socket.once("error", reject)
    res.defer(() => socket.destroy())
  })

/** Stores what the first part of the match made before the link is cut: this test is about what comes after. */
const waitForStored = (bridge: Bridge, count: number) =>
  eventually(`${count} entries stored`, async () => {
    const stored = Object.values(await bridge.outboxStates()).reduce((n, c) => n + c, 0)
    return stored >= count ? true : undefined
  }, { timeoutMs: 10_000 })

interface Match<B> {
  readonly sport: Sport
  readonly console: () => SimulatedConsole<B>
  readonly steps: ReadonlyArray<Step<B>>
  readonly expected: ReadonlyArray<Expected<unknown>>
  /** Between boards: past the settle window of partial-update protocols. */
  readonly gapMs: number
}

const basketball = (console: () => SimulatedConsole<BasketballBoard>, shows: { readonly period: boolean }, gapMs: number, seed: number): Match<BasketballBoard> => {
  const steps = basketballQuarter(seed)
  const expected = expectedEntries(steps, (b) => basketballEntry(b, shows))
  expectModelShape(steps, expected)
  return { sport: "basketball", console, steps, expected, gapMs }
}

const match = <B>(sport: Sport, console: () => SimulatedConsole<B>, steps: ReadonlyArray<Step<B>>, entryOf: (board: B) => unknown, gapMs: number): Match<B> => {
  const expected = expectedEntries(steps, entryOf)
  expectModelShape(steps, expected)
  return { sport, console, steps, expected, gapMs }
}

describe("tcp listen: the console connects to the daemon process", () => {
  const res = resources()
  afterEach(() => res.release())

  const cases: ReadonlyArray<readonly [string, () => Match<any>]> = [
    // Bodet's network output: the Scorepad connects to the bridge and streams message 11 among its others.
    ["bodet-scorepad", () => match("unihockey", bodetFloorball, floorballMatch(70), floorballEntry, 20)],
    ["stramatel-452m", () => basketball(stramatelBasketball, { period: true }, 20, 71)],
    // Partial updates over the network: settled with the network default window (90 ms).
    ["daktronics-rtd", () => basketball(daktronicsBasketball, { period: true }, 130, 72)]
  ]

  it.each(cases)("%s: disconnects mid-match and comes back; every entry once, in order, stamped on arrival", async (_name, makeMatch) => {
    const match = makeMatch()
    const console = match.console()
    const port = await freePort()
    const bridge = await startBridge(res, match.sport, console as SimulatedConsole<never>, { tcp: { listen: `127.0.0.1:${port}` } }, { process: true })
    await waitForLog(bridge, new RegExp(`listening on 127\\.0\\.0\\.1:${port} \\(TCP\\)`))
    const written: WriteTimes = []
    const half = Math.floor(match.steps.length / 2)

    const first = await tcpConsole(res, port)
    await waitForLog(bridge, /console 127\.0\.0\.1:\d+ connected/)
    await play(match.steps, console, (payload) => first.write(payload), written, { to: half, gapMs: match.gapMs })
    await waitForStored(bridge, match.expected.filter((e) => e.step < half).length)

    // The console is switched off mid-match: its connection closes, the daemon waits for it.
    first.end()
    await waitForLog(bridge, /closed the connection; listening on/)
    await sleep(300)
    const again = await tcpConsole(res, port)
    await waitForLog(bridge, /console 127\.0\.0\.1:\d+ connected/, 2)
    await play(match.steps, console, (payload) => again.write(payload), written, { from: half, gapMs: match.gapMs })

    await expectDelivered(bridge, match.expected, written)
    expect(bridge.daemon?.crashes()).toBe(0)
  })
})

/** A console, or a serial-to-Ethernet converter in TCP server mode, that can be switched off and on. */
const consoleServer = (res: Resources, port: number) => {
  const sockets: Array<Socket> = []
  // No Nagle: a converter sends what it read at once, so the test's cuts reach the daemon as written.
  const accept = (socket: Socket) => sockets.push(socket.setNoDelay(true))
  let server = createServer(accept)
  const listen = () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
  res.defer(stop)
  return {
    start: listen,
    stop,
    restart: async () => {
      server = createServer(accept)
      await listen()
    },
    connections: () => sockets.length,
    write: (payload: Uint8Array | string) => sockets.at(-1)?.write(payload)
  }
}

describe("tcp connect: the daemon connects to a console that restarts", () => {
  const res = resources()
  afterEach(() => res.release())

  it.each([
    // A Fair-Play console's RS-232 behind a serial-to-Ethernet converter.
    ["fairplay-mp70", () => match("hockey", () => fairplayConsole(), hockeyGame(80), hockeyEntry, 20)],
    ["daktronics-rtd", () => basketball(daktronicsBasketball, { period: true }, 130, 81)],
    ["stramatel-452m", () => basketball(stramatelBasketball, { period: true }, 20, 82)]
  ] as const)("%s: reconnects after the restart and every entry arrives once, in order", async (_name, makeMatch) => {
    const match = makeMatch()
    const console = match.console()
    const port = await freePort()
    const converter = consoleServer(res, port)
    await converter.start()
    const bridge = await startBridge(res, match.sport, console as SimulatedConsole<never>, { tcp: { connect: `127.0.0.1:${port}` } })
    await eventually("the daemon to connect", () => (converter.connections() === 1 ? true : undefined), { timeoutMs: 8_000 })
    const written: WriteTimes = []
    const half = Math.floor(match.steps.length / 2)
    await play(match.steps, console, converter.write, written, { to: half, gapMs: match.gapMs })
    await waitForStored(bridge, match.expected.filter((e) => e.step < half).length)

    await converter.stop()
    await waitForLog(bridge, /TCP connection lost: 127\.0\.0\.1:\d+ closed the connection/)
    // Off long enough for the daemon to be refused at least once.
    await waitForLog(bridge, /refused the connection/)
    const restartedAt = Date.now()
    await converter.restart()
    await eventually("the daemon to reconnect", () => (converter.connections() === 2 ? true : undefined), { timeoutMs: 8_000 })
    // The serial ports' back-off: no wait longer than 1.8 s.
    expect(Date.now() - restartedAt).toBeLessThan(2_500)
    await play(match.steps, console, converter.write, written, { from: half, gapMs: match.gapMs })

    await expectDelivered(bridge, match.expected, written)
  })
})

describe("tcp connect: a Daktronics console behind a converter, one change as several frames", () => {
  const res = resources()
  afterEach(() => res.release())

  // Each changed field a frame of its own, and about half the changes cut across writes 2–30 ms
  // apart, as a converter packs what it read: the network's settle window (90 ms) must make one
  // entry of each change, stamped at its first frame.
  const scene = <B>(sport: Sport, render: Render<B>, steps: ReadonlyArray<Step<B>>, entryOf: (board: B) => unknown) => async () => {
    const expected = expectedEntries(steps, entryOf)
    const console = rtdFieldConsole(render)
    const port = await freePort()
    const converter = consoleServer(res, port)
    await converter.start()
    const bridge = await startBridge(res, sport, console as SimulatedConsole<never>, { tcp: { connect: `127.0.0.1:${port}` } })
    await eventually("the daemon to connect", () => (converter.connections() === 1 ? true : undefined), { timeoutMs: 8_000 })
    const written: WriteTimes = []
    const played = await playFields(steps, console, (bytes) => converter.write(bytes), written, { delivery: "mixed", seed: 7 })
    expect(played.multiFrameSteps, "changes sent as several frames").toBeGreaterThan(0)
    expect(played.splitSteps, "changes cut across writes").toBeGreaterThan(0)
    await expectDelivered(bridge, expected, written)
  }

  it("a tennis set won 6–4: one entry per change, none for the states in between", scene("tennis", tennisFields, tennisSetWon(), tennisEntry))

  it("a volleyball set won and the next started: one entry per change, none for the states in between",
    scene("volleyball", volleyballFields, volleyballSetWonAndNextSet(), volleyballEntry))
})

const udpSender = async (res: Resources, address: string): Promise<UdpSocket> => {
  const socket = createSocket("udp4")
  await new Promise<void>((resolve) => socket.bind(0, address, resolve))
  res.defer(() => socket.close())
  return socket
}

describe("udp listen: datagrams from one console", () => {
  const res = resources()
  afterEach(() => res.release())

  it.each([
    ["stramatel-452m", () => basketball(stramatelBasketball, { period: true }, 20, 91)],
    // One JSON document per datagram: the daemon frames udp: payloads as messages, no newline needed.
    ["json", () => basketball(jsonBasketball, { period: true }, 20, 92)]
  ] as const)("%s: every entry once; a second sender on the network changes nothing", async (_name, makeMatch) => {
    const match = makeMatch()
    const console = match.console()
    const port = await freePort()
    const bridge = await startBridge(res, match.sport, console as SimulatedConsole<never>, {
      udp: { listen: `127.0.0.1:${port}`, from: "127.0.0.1" }
    })
    await waitForLog(bridge, new RegExp(`listening on 127\\.0\\.0\\.1:${port} \\(UDP\\)`))
    const sender = await udpSender(res, "127.0.0.1")
    // 127.0.0.2 is loopback too on Linux: another device on the venue network, showing other scores.
    const stranger = await udpSender(res, "127.0.0.2")
    const send = (socket: UdpSocket, payload: Uint8Array | string) =>
      new Promise<void>((resolve, reject) => socket.send(payload, port, "127.0.0.1", (err) => (err ? reject(err) : resolve())))
    const written: WriteTimes = []
    const foreign = basketballQuarter(99)
    let i = 0
    await play(match.steps, console, async (payload) => {
      await send(sender, payload)
      if (i < foreign.length) await send(stranger, console.encode(foreign[i++]!.board as never))
    }, written, { gapMs: match.gapMs })

    await expectDelivered(bridge, match.expected, written)
    expect(logsMatching(bridge, /ignoring datagrams from 127\.0\.0\.2/)).toBe(1)
  })
})
