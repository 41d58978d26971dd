import { realpathSync } from "node:fs"
import { serialLines } from "../../commissioning/doctor.ts"
import type { Config } from "../../config/schema.ts"
import { parseHostPort } from "../../domain/host-port.ts"

/** The device behind a path (a by-id link resolves to /dev/ttyUSB0); the path itself when it does not resolve. */
export const deviceOf = (path: string): string => {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** Who in the config reads this serial line ("place court-2 scoreboard", "button remote-1"), by path or by the device behind it. */
export const serialUser = (config: Config, path: string): string | undefined => {
  const device = deviceOf(path)
  return serialLines(config).find((line) => line.path === path || deviceOf(line.path) === device)?.label
}

/** Which place's scoreboard listens on this port (TCP or UDP): the daemon holds it while it runs. */
export const listenUser = (config: Config, kind: "tcp" | "udp", listen: string): string | undefined => {
  const { port } = parseHostPort(listen)
  const place = config.places.find((p) => {
    const own = kind === "tcp" ? p.scoreboard?.tcp?.listen : p.scoreboard?.udp?.listen
    return own !== undefined && parseHostPort(own).port === port
  })
  return place === undefined ? undefined : `place ${place.key} scoreboard`
}
