import { join } from "node:path"
import type { Cleanup } from "./cleanup.ts"
import { type Daemon, startDaemon } from "./daemon-process.ts"
import { accepted, allRequests, settle } from "./deliveries.ts"
import { type Heading, say } from "./report.ts"
import { sleep } from "./stats.ts"
import { startTicking } from "./steady.ts"
import { pressButton, requestsPerSecond, startVenue, token, type Venue, writeScoreChange } from "./venue.ts"

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

/**
 * One change and one press per place, then quiet: JIT, connections and the live-event look-ups
 * warm up before anything is measured, and a press that never arrives here means a subscription
 * is not live. `what` names the daemon in the error.
 */
export const warmUp = async (venue: Venue, what = ""): Promise<void> => {
  for (const place of venue.places) {
    writeScoreChange(place)
    await pressButton(venue, place)
    await sleep(50)
  }
  await settle(venue, 2_500, 90_000)
  const warmClicks = (await allRequests(venue)).filter((r) => r.path.endsWith("/clicks") && accepted(r)).length
  if (warmClicks < venue.places.length) throw new Error(`${what}only ${warmClicks} of ${venue.places.length} warm-up presses became clicks`)
}

export interface Started {
  readonly venue: Venue
  readonly daemon: Daemon
  readonly startupMs: number
  /** The clock frames go on until the first daemon is stopped; the slow-disk phase starts its own. */
  readonly stopTicking: () => void
}

/** The venue, the first daemon and its start-up figure, warmed up: what every later phase runs against. */
export const startupPhase = async (
  heading: Heading,
  cleanup: Cleanup,
  dir: string,
  { placeCount, benchStartedAt }: { readonly placeCount: number; readonly benchStartedAt: number }
): Promise<Started> => {
  heading(`venue: simulator at ${requestsPerSecond} request/s, mosquitto, ${placeCount} socat pty pairs; daemon start-up`)
  const venue = await startVenue(cleanup, dir, placeCount)
  const daemon = startDaemon(venue.configPath, { SCOREBRIDGE_TOKEN: token }, join(dir, "heap.ndjson"))
  cleanup.defer(() => daemon.stop())
  const startupMs = await waitUntilReady(daemon, placeCount)
  say(`  start-up ${startupMs} ms (${readyDefinition})`)
  const stopTicking = startTicking(venue)
  cleanup.defer(stopTicking)
  await warmUp(venue)
  say(`  warmed up and quiet after ${Math.round((Date.now() - benchStartedAt) / 1000)} s`)
  return { venue, daemon, startupMs, stopTicking }
}
