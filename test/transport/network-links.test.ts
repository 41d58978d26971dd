import { Effect, Fiber, Logger, Stream } from "effect"
import { createSocket, type Socket as UdpSocket } from "node:dgram"
import { connect, createServer, type Server, type Socket } from "node:net"
import { format } from "node:util"
import { afterEach, describe, expect, it } from "vitest"
import type { LinkState, ReceivedChunk } from "../../src/domain/received.ts"
import { tcpConnectChunks } from "../../src/transport/tcp-connect.ts"
import { tcpListenChunks } from "../../src/transport/tcp-listen.ts"
import { udpListenChunks } from "../../src/transport/udp-listen.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { sleep } from "../support/sleep.ts"

/** Runs a transport in the background, recording what it delivers, reports and logs. */
const startReading = (chunksOf: (onState: (state: LinkState) => void) => Stream.Stream<ReceivedChunk>) => {
  const chunks: Array<ReceivedChunk> = []
  const states: Array<LinkState> = []
  const logs: Array<string> = []
  const collector = Logger.make(({ logLevel, message }) => logs.push(`${logLevel} ${format(...(Array.isArray(message) ? message : [message]))}`))
  const fiber = Effect.runFork(
    Stream.runForEach(chunksOf((state) => states.push(state)), (chunk) => Effect.sync(() => chunks.push(chunk))).pipe(
      Effect.provide(Logger.layer([collector]))
    )
  )
  const received = () => Buffer.concat(chunks.map((chunk) => chunk.bytes)).toString("latin1")
  const last = () => states.at(-1)
  return { chunks, states, logs, received, last, stop: () => Effect.runPromise(Fiber.interrupt(fiber)) }
}
type Reading = ReturnType<typeof startReading>

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  // Bounded: every pass pops one.
  while (cleanups.length > 0) await cleanups.pop()!()
})
const track = (reading: Reading) => {
  cleanups.push(() => reading.stop())
  return reading
}

const tcpClient = (port: number, localAddress = "127.0.0.1"): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress }, () => resolve(socket))
    socket.once("error", reject)
    cleanups.push(() => socket.destroy())
  })

const closed = (socket: Socket) => new Promise<void>((resolve) => socket.once("close", () => resolve()))

const stateIs = (reading: Reading, tag: LinkState["_tag"], text?: RegExp) =>
  eventually(`link state ${tag}${text === undefined ? "" : ` matching ${text}`} (states: ${JSON.stringify(reading.states)})`, () => {
    const state = reading.last()
    if (state?._tag !== tag) return undefined
    if (text === undefined) return state
    return text.test(JSON.stringify(state)) ? state : undefined
  }, { timeoutMs: 6_000 })

describe("tcp listen: the console connects to the bridge", () => {
  it("stamps bytes on arrival, takes a second connection in place of the first, and waits again when it closes", async () => {
    const port = await freePort()
    const reading = track(startReading((onState) => tcpListenChunks({ endpoint: { host: "127.0.0.1", port }, quietMs: 60_000 }, onState)))
    await stateIs(reading, "listening")

    const first = await tcpClient(port)
    await stateIs(reading, "connected", /→ 127\.0\.0\.1/)
    const sentAt = Date.now()
    first.write("AB")
    await eventually("the first bytes", () => (reading.received() === "AB" ? true : undefined))
    expect(reading.chunks[0]!.receivedAt).toBeGreaterThanOrEqual(sentAt)
    expect(reading.chunks[0]!.receivedAt - sentAt).toBeLessThan(500)

    // A console that rebooted connects again while its old connection still looks open.
    const firstClosed = closed(first)
    const second = await tcpClient(port)
    await firstClosed
    second.write("CD")
    await eventually("bytes of the second connection", () => (reading.received() === "ABCD" ? true : undefined))
    expect(reading.logs.some((line) => /new connection from 127\.0\.0\.1:\d+ replaces/.test(line))).toBe(true)
    expect(reading.states.some((s) => s._tag === "disconnected" && /replaced by a new connection/.test(s.reason))).toBe(true)
    expect(reading.last()?._tag).toBe("connected")

    second.end()
    await stateIs(reading, "listening")
    expect(reading.states.some((s) => s._tag === "disconnected" && /closed the connection/.test(s.reason))).toBe(true)

    // And it comes back.
    const third = await tcpClient(port)
    third.write("EF")
    await eventually("bytes after the console came back", () => (reading.received() === "ABCDEF" ? true : undefined))
    await stateIs(reading, "connected")
  })

  it("with from:, closes another device's connection instead of letting it replace the console's", async () => {
    const port = await freePort()
    const reading = track(startReading((onState) =>
      tcpListenChunks({ endpoint: { host: "127.0.0.1", port }, from: "127.0.0.1", quietMs: 60_000 }, onState)
    ))
    await stateIs(reading, "listening")
    const console = await tcpClient(port)
    console.write("1")
    await eventually("the console's bytes", () => (reading.received() === "1" ? true : undefined))
    // 127.0.0.2 is loopback too on Linux: another device on the venue network.
    const stranger = await tcpClient(port, "127.0.0.2")
    await closed(stranger)
    console.write("2")
    await eventually("the console still read", () => (reading.received() === "12" ? true : undefined))
    expect(reading.logs.filter((line) => /closed a connection from 127\.0\.0\.2:\d+ .*only 127\.0\.0\.1 may connect/.test(line))).toHaveLength(1)
    expect(reading.states.filter((s) => s._tag === "disconnected")).toEqual([])
  })

  it("reports a connection silent for quietMs as down, and up again when bytes resume", async () => {
    const port = await freePort()
    const reading = track(startReading((onState) => tcpListenChunks({ endpoint: { host: "127.0.0.1", port }, quietMs: 600 }, onState)))
    await stateIs(reading, "listening")
    const console = await tcpClient(port)
    console.write("x")
    await stateIs(reading, "connected")
    const down = await stateIs(reading, "disconnected", /silent for/)
    expect(down._tag === "disconnected" && down.reason).toMatch(/console 127\.0\.0\.1:\d+ silent for 1 s/)
    console.write("y")
    await stateIs(reading, "connected")
    expect(reading.received()).toBe("xy")
  })

  it("names a port already in use and keeps trying until it is free", async () => {
    const port = await freePort()
    const squatter: Server = createServer()
    await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve))
    const reading = track(startReading((onState) => tcpListenChunks({ endpoint: { host: "127.0.0.1", port }, quietMs: 60_000 }, onState)))
    const down = await stateIs(reading, "disconnected")
    expect(down._tag === "disconnected" && down.reason).toMatch(/cannot listen on 127\.0\.0\.1:\d+: another program .* already uses that port/)
    await new Promise((resolve) => squatter.close(resolve))
    await stateIs(reading, "listening")
    const console = await tcpClient(port)
    console.write("ok")
    await eventually("bytes once the port was free", () => (reading.received() === "ok" ? true : undefined))
  })
})

/** A console (or converter) in TCP server mode that the bridge connects to. */
const consoleServer = async (port: number) => {
  const sockets: Array<Socket> = []
  const server = createServer((socket) => sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
  cleanups.push(stop)
  return { sockets, stop, latest: () => sockets.at(-1) }
}

describe("tcp connect: the bridge connects to the console or a converter", () => {
  it("reports a refused connection, connects once the console listens, and reconnects after a restart", async () => {
    const port = await freePort()
    const reading = track(startReading((onState) => tcpConnectChunks({ endpoint: { host: "127.0.0.1", port }, quietMs: 60_000 }, onState)))
    const refused = await stateIs(reading, "disconnected")
    expect(refused._tag === "disconnected" && refused.reason).toMatch(/refused the connection: nothing listens on that port/)

    let console = await consoleServer(port)
    await stateIs(reading, "connected")
    const sentAt = Date.now()
    console.latest()!.write("12")
    await eventually("bytes from the console", () => (reading.received() === "12" ? true : undefined))
    expect(reading.chunks[0]!.receivedAt).toBeGreaterThanOrEqual(sentAt)

    // The console restarts: its connection drops and its port is closed for a while.
    await console.stop()
    await stateIs(reading, "disconnected")
    await sleep(300)
    const restartedAt = Date.now()
    console = await consoleServer(port)
    await stateIs(reading, "connected")
    // reconnectSchedule caps a wait at 1.8 s.
    expect(Date.now() - restartedAt).toBeLessThan(2_500)
    console.latest()!.write("34")
    await eventually("bytes after the restart", () => (reading.received() === "1234" ? true : undefined))
  })

  it("closes a silent connection and opens a new one", async () => {
    const port = await freePort()
    const console = await consoleServer(port)
    const reading = track(startReading((onState) => tcpConnectChunks({ endpoint: { host: "127.0.0.1", port }, quietMs: 500 }, onState)))
    await stateIs(reading, "connected")
    const down = await stateIs(reading, "disconnected", /silent for/)
    expect(down._tag === "disconnected" && down.reason).toMatch(/closed to reconnect/)
    await eventually("a second connection from the bridge", () => (console.sockets.length >= 2 ? true : undefined))
    console.latest()!.write("z")
    await eventually("bytes on the new connection", () => (reading.received() === "z" ? true : undefined))
  })
})

const udpSender = async (address: string): Promise<UdpSocket> => {
  const socket = createSocket("udp4")
  await new Promise<void>((resolve) => socket.bind(0, address, resolve))
  cleanups.push(() => socket.close())
  return socket
}

const send = (socket: UdpSocket, port: number, text: string) =>
  new Promise<void>((resolve, reject) => socket.send(text, port, "127.0.0.1", (err) => (err ? reject(err) : resolve())))

describe("udp listen: datagrams from one console", () => {
  it("reads each datagram as one chunk, ignores other senders, and reports silence", async () => {
    const port = await freePort()
    const reading = track(startReading((onState) =>
      udpListenChunks({ endpoint: { host: "127.0.0.1", port }, from: "127.0.0.1", quietMs: 600 }, onState)
    ))
    await stateIs(reading, "listening")
    const console = await udpSender("127.0.0.1")
    // 127.0.0.2 is loopback too on Linux: a second device on the venue network.
    const stranger = await udpSender("127.0.0.2")
    await send(stranger, port, "nope")
    await send(console, port, "one")
    await send(console, port, "two")
    await eventually("both datagrams", () => (reading.chunks.length === 2 ? true : undefined))
    expect(reading.chunks.map((c) => Buffer.from(c.bytes).toString())).toEqual(["one", "two"])
    await stateIs(reading, "connected", /"127\.0\.0\.1 → 127\.0\.0\.1:\d+"/)
    expect(reading.logs.some((line) => /ignoring datagrams from 127\.0\.0\.2/.test(line))).toBe(true)

    const down = await eventually("the silence reported", () =>
      reading.states.find((s) => s._tag === "disconnected" && /no datagram/.test(s.reason)))
    expect(down._tag === "disconnected" && down.reason).toMatch(/silent for 1 s/)
    expect(reading.last()?._tag).toBe("listening")
    await send(console, port, "three")
    await stateIs(reading, "connected")
    expect(reading.chunks).toHaveLength(3)
  })
})
