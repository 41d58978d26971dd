import { createServer, type Server, type Socket } from "node:net"

/**
 * A loopback TCP forwarder in front of the simulator. `close()` stops listening and cuts every
 * open connection, so the daemon gets "connection refused" (the service is down) while the
 * simulator keeps its state; `open()` listens again on the same port (the service is back).
 */
export interface Proxy {
  readonly url: string
  readonly open: () => Promise<void>
  readonly close: () => Promise<void>
}

export const startProxy = async (targetPort: number): Promise<Proxy> => {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const listening = createServer((inbound) => {
        const outbound = new (inbound.constructor as typeof Socket)()
        sockets.add(inbound)
        sockets.add(outbound)
        const drop = () => {
          inbound.destroy()
          outbound.destroy()
          sockets.delete(inbound)
          sockets.delete(outbound)
        }
        inbound.on("error", drop).on("close", drop)
        outbound.on("error", drop).on("close", drop)
        outbound.connect(targetPort, "127.0.0.1", () => {
          inbound.pipe(outbound)
          outbound.pipe(inbound)
        })
      })
      listening.once("error", reject)
      listening.listen(port, "127.0.0.1", () => {
        const address = listening.address()
        if (address !== null && typeof address !== "string") port = address.port
        server = listening
        resolve()
      })
    })

  const close = () =>
    new Promise<void>((resolve) => {
      const current = server
      server = undefined
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      if (current === undefined) resolve()
      else current.close(() => resolve())
    })

  await open()
  return { url: `http://127.0.0.1:${port}`, open, close }
}
