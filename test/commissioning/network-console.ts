import { createSocket } from "node:dgram"
import { connect, createServer, type Server, type Socket } from "node:net"
import { frame } from "../../adapters/stramatel-452m/encode.ts"

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Stramatel 452 M volleyball frames, the score moving on frame by frame. */
export const stramatelFrames = (count: number): Uint8Array =>
  new Uint8Array(Buffer.concat(Array.from({ length: count }, (_, i) =>
    frame(0x36, { home: 10 + i, away: 8, period: 2, sets: [[25, 20], [10 + i, 8]], setsWon: [1, 0], serve: "home" })
  )))

/** A console connecting to a listening bridge, as Bodet's network output does. */
export const connectConsole = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, () => resolve(socket))
    socket.once("error", reject)
  })

/** Writes `bytes` in `pieces` with `pauseMs` between them, so the recording has real chunk boundaries and times. */
export const writePaced = async (socket: Socket, bytes: Uint8Array, pieces: number, pauseMs: number): Promise<void> => {
  const size = Math.ceil(bytes.length / pieces)
  for (let at = 0; at < bytes.length; at += size) {
    socket.write(bytes.subarray(at, at + size))
    await pause(pauseMs)
  }
}

/** Writes `bytes` over and over, `piece` bytes every `everyMs`, until stopped: a console that keeps sending. */
export const keepSending = (socket: Socket, bytes: Uint8Array, piece = 54, everyMs = 10): { readonly stop: () => void } => {
  let offset = 0
  const timer = setInterval(() => {
    if (socket.destroyed) return
    const end = Math.min(offset + piece, bytes.length)
    socket.write(bytes.subarray(offset, end))
    offset = end === bytes.length ? 0 : end
  }, everyMs)
  return { stop: () => clearInterval(timer) }
}

export interface ConsoleServer {
  readonly port: number
  /** Connections accepted so far. */
  readonly accepted: () => number
  readonly close: () => Promise<void>
}

/**
 * A console or serial-to-Ethernet converter in TCP server mode on 127.0.0.1: each connection
 * gets `bytes` in a loop, or nothing at all (a converter whose console is silent).
 */
export const startConsoleServer = (bytes: Uint8Array | undefined): Promise<ConsoleServer> =>
  new Promise((resolve, reject) => {
    const sockets = new Set<Socket>()
    const senders = new Set<{ readonly stop: () => void }>()
    let accepted = 0
    const server: Server = createServer((socket) => {
      accepted++
      sockets.add(socket)
      socket.on("error", () => undefined)
      if (bytes !== undefined) senders.add(keepSending(socket, bytes))
    })
    server.once("error", reject)
    server.listen({ host: "127.0.0.1", port: 0 }, () => {
      const address = server.address()
      if (address === null || typeof address === "string") return reject(new Error("no address"))
      resolve({
        port: address.port,
        accepted: () => accepted,
        close: () =>
          new Promise((done) => {
            for (const sender of senders) sender.stop()
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })

/** Sends each message as one datagram to 127.0.0.1:`port`, `pauseMs` apart; resolves with the sender's port. */
export const sendDatagrams = async (port: number, messages: ReadonlyArray<Uint8Array>, pauseMs: number): Promise<number> => {
  const socket = createSocket("udp4")
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", () => resolve()))
  try {
    for (const message of messages) {
      await new Promise<void>((resolve, reject) => socket.send(message, port, "127.0.0.1", (err) => (err ? reject(err) : resolve())))
      await pause(pauseMs)
    }
    return socket.address().port
  } finally {
    socket.close()
  }
}
