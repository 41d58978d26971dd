import { writeFileSync } from "node:fs"
import { stringify } from "yaml"
import type { Config } from "../../src/config/schema.ts"

/**
 * A daemon config as a config file holds it, typed by the daemon's own schema: a test whose
 * config drifts from what the daemon reads fails to compile instead of failing at start-up.
 * Tests of config parsing write their YAML by hand instead, broken on purpose or line for line.
 */
export type DaemonConfig = typeof Config.Encoded
export type PlaceConfig = DaemonConfig["places"][number]

type ServiceConfig = DaemonConfig["service"]

/** Every test daemon gets its token from this variable, so a config names no secret. */
const tokenEnv = "SCOREBRIDGE_TOKEN"

/**
 * The config of a test daemon: what the test cares about, with the token read from `tokenEnv`
 * unless `service.token` says otherwise. Decode it for a daemon in this process, or write it
 * with `writeConfig` for a real one.
 */
export const daemonConfig = (
  { service, ...rest }: Omit<DaemonConfig, "service"> & { readonly service: Omit<ServiceConfig, "token"> & { readonly token?: ServiceConfig["token"] } }
): DaemonConfig => ({ service: { token: { env: tokenEnv }, ...service }, ...rest })

/** Writes `config` as YAML and returns the file's path. */
export const writeConfig = (file: string, config: DaemonConfig): string => {
  // Unfolded, so a long pattern or path reads as one line to whoever opens a failed test's config.
  writeFileSync(file, stringify(config, { lineWidth: 0 }))
  return file
}

/**
 * A court whose console publishes its board as JSON on MQTT (`{score: {home, away}, quarter}`),
 * with a zigbee2mqtt remote's single press making the home team's highlight when `remote` names
 * the button source.
 */
export const jsonCourtOverMqtt = (key: string, scoreTopic: string, remote?: string): PlaceConfig => ({
  key,
  sport: "basketball",
  scoreboard: {
    protocol: "json",
    mqtt: { topics: [scoreTopic] },
    options: { framing: "message", fields: { home: "score.home", away: "score.away", period: "quarter" } }
  },
  ...(remote === undefined ? {} : { actions: [{ source: remote, gesture: "single", do: "highlight", team: "home" }] })
})
