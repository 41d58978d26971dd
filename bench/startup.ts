import type { Daemon } from "./daemon-process.ts"
import { sleep } from "./stats.ts"

/** What "ready" means, printed with the figure. */
export const readyDefinition =
  "spawn of bin/scorebridge → the daemon's log line for the last of its 8 serial ports opened and its MQTT connection up (pino `time`, same clock)"

/**
 * Start-up: from spawn to the time the daemon logged the last link it needs (every serial port
 * connected, MQTT connected). Those lines come after the whole layer is built and the outbox
 * is open, so the daemon can take a frame or a press from then on.
 */
export const waitUntilReady = async (daemon: Daemon, serialPorts: number, timeoutMs = 20_000): Promise<number> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (daemon.exited()) {
      const said = daemon.logs().slice(0, 5).map((l) => l.msg).join("\n")
      throw new Error(`the daemon exited during start-up:\n${said}\nstderr: ${daemon.stderr()}`)
    }
    const logs = daemon.logs()
    const serial = logs.filter((l) => l.msg === "serial port connected")
    const mqtt = logs.find((l) => l.msg.startsWith("MQTT connected"))
    if (serial.length >= serialPorts && mqtt !== undefined) {
      return Math.max(mqtt.time, ...serial.map((l) => l.time)) - daemon.spawnedAt
    }
    await sleep(10)
  }
  const tail = daemon.logs().slice(-10).map((l) => l.msg).join("\n")
  throw new Error(`the daemon was not ready after ${timeoutMs} ms; last logs:\n${tail}\nstderr: ${daemon.stderr()}`)
}
