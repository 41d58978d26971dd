import { createServer } from "node:net"

/**
 * A TCP port on 127.0.0.1 that was free a moment ago. The OS picks it, so two tests running at
 * once do not collide; there is still a short race until the caller binds it, which is why
 * servers started by tests (mosquitto, the simulator) should bind soon after asking.
 */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (address === null || typeof address === "string") {
        server.close()
        reject(new Error("no TCP address for a loopback listener"))
        return
      }
      server.close(() => resolve(address.port))
    })
  })
