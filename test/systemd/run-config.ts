import { type DaemonConfig, daemonConfig, type PlaceConfig } from "../../scripts/support/daemon-config.ts"

/** Configs of the daemon as the systemd, package, upgrade and CLI tests run it (scripts/support/scorebridge-process.ts starts it). */

/** A tennis place on a serial link speaking the demo's `lines` protocol. */
export const tennisOnSerial = (key: string, serialPath: string): PlaceConfig => ({
  key,
  sport: "tennis",
  scoreboard: {
    protocol: "lines",
    serial: { path: serialPath, baudRate: 9600 },
    options: { pattern: "^(?<clock>\\d\\d:\\d\\d) (?<homePoints>\\w+)-(?<awayPoints>\\w+) (?<sets>[\\d -]+)$" }
  }
})

/**
 * The config of a daemon run as systemd runs it. The status page gets its own free port: test
 * files run in parallel, and the default 8370 would collide.
 */
export const runConfig = (
  { baseUrl, stateDirectory, statusPort, timeoutMs = 10_000, ...sections }: {
    readonly baseUrl: string
    readonly stateDirectory: string
    readonly statusPort: number
    readonly timeoutMs?: number
  } & Pick<DaemonConfig, "places" | "buttons">
): DaemonConfig =>
  daemonConfig({
    service: { baseUrl, requestsPerSecond: 20, timeoutMs },
    stateDirectory,
    status: { listen: `127.0.0.1:${statusPort}` },
    log: { level: "info" },
    ...sections
  })
