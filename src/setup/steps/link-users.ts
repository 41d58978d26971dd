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

/** Who in the config reads a link: its words ("place court-2 scoreboard", "button remote-1") and, for a place's scoreboard, the place's key. */
export interface LinkUser {
  readonly label: string
  readonly place?: string
}

const placeUser = (key: string): LinkUser => ({ label: `place ${key} scoreboard`, place: key })

/** Who in the config reads this serial line, by path or by the device behind it. */
export const serialUser = (config: Config, path: string): LinkUser | undefined => {
  const device = deviceOf(path)
  const same = (other: string) => other === path || deviceOf(other) === device
  const place = config.places.find((p) => p.scoreboard?.serial !== undefined && same(p.scoreboard.serial.path))
  if (place !== undefined) return placeUser(place.key)
  const line = serialLines(config).find((l) => same(l.path))
  return line === undefined ? undefined : { label: line.label }
}

/** Which place's scoreboard listens on this port (TCP or UDP): the daemon holds it while it runs. */
export const listenUser = (config: Config, kind: "tcp" | "udp", listen: string): LinkUser | undefined => {
  const { port } = parseHostPort(listen)
  const place = config.places.find((p) => {
    const own = kind === "tcp" ? p.scoreboard?.tcp?.listen : p.scoreboard?.udp?.listen
    return own !== undefined && parseHostPort(own).port === port
  })
  return place === undefined ? undefined : placeUser(place.key)
}
