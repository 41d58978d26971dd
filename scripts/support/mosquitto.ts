import { writeFileSync } from "node:fs"
import { connect } from "node:net"
import { userInfo } from "node:os"
import { join } from "node:path"
import { type Child, hasExited, startChild } from "./child.ts"
import { eventually } from "./eventually.ts"
import { freePort } from "./free-port.ts"

/**
 * A real mosquitto broker on 127.0.0.1 for one test file.
 *
 * - `set_tcp_nodelay true`: without it small messages can sit ~40 ms in Nagle's buffer and
 *   latency figures would measure the broker (see testing notes).
 * - `persistence true` in `dir`: persistent sessions (clean: false) and their queued QoS 1
 *   messages survive `restart()`, and `stop()` followed by `start()`, like a real broker reboot.
 * - `stop()` ends the broker (SIGTERM, which also writes the persistence file); `start()` brings it
 *   back on the same port. Call `stop()` in `afterAll`/`afterEach`.
 *
 * ```ts
 * let broker: Mosquitto
 * beforeAll(async () => { broker = await startMosquitto(dir) })
 * afterAll(() => broker.stop())
 * ```
 */
export interface Mosquitto {
  readonly url: string
  readonly port: number
  readonly start: () => Promise<void>
  readonly stop: () => Promise<void>
  readonly restart: () => Promise<void>
}

const mosquittoBinary = "/usr/sbin/mosquitto"

export const startMosquitto = async (dir: string): Promise<Mosquitto> => {
  const port = await freePort()
  const config = join(dir, "mosquitto.conf")
  writeFileSync(
    config,
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous true",
      "set_tcp_nodelay true",
      "persistence true",
      `persistence_location ${dir}/`,
      // Queue plenty for disconnected persistent sessions; tests check nothing is dropped.
      "max_queued_messages 10000",
      // Started as root, mosquitto switches to its own user and then cannot write the
      // persistence file in our temp dir; staying the test's user avoids that (no effect otherwise).
      `user ${userInfo().username}`,
      "log_dest stderr",
      "log_type error",
      "log_type warning",
      "log_type notice",
      ""
    ].join("\n")
  )
  let broker: Child | undefined

  const start = async (): Promise<void> => {
    if (broker !== undefined) return
    const child = startChild(mosquittoBinary, ["-c", config])
    broker = child
    await eventually(`mosquitto to accept connections on port ${port}`, async () => {
      if (hasExited(child)) throw new Error(`mosquitto exited early: ${child.stderr()}`)
      return (await accepts(port)) ? true : undefined
    })
  }

  const stop = async (): Promise<void> => {
    const child = broker
    broker = undefined
    await child?.stop()
  }

  await start()
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    start,
    stop,
    restart: async () => {
      await stop()
      await start()
    }
  }
}

/** True when something on 127.0.0.1 accepts a TCP connection on `port` (a broker's listener is up). */
export const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => {
      socket.destroy()
      resolve(false)
    })
  })
