import { readdirSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { ok, type SetupRoute } from "../setup-route.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { configIfValid } from "./current-config.ts"
import { deviceOf, serialUser } from "./link-users.ts"

/**
 * Where the stable names of serial adapters are. Only these are offered: /dev/ttyUSB0 changes with
 * the order adapters are plugged in, a by-id name does not. The variable points tests at a
 * directory of links to their ptys.
 */
export const serialByIdDirectory = (): string => process.env["SCOREBRIDGE_SERIAL_BY_ID"] ?? "/dev/serial/by-id"

export interface SerialPortEntry {
  readonly path: string
  readonly device: string
  readonly usedBy?: string
}

/** The by-id names present now, sorted; none when the directory is missing (no adapter plugged in: udev removes it). */
export const byIdPaths = (): ReadonlyArray<string> => {
  const directory = serialByIdDirectory()
  try {
    return readdirSync(directory).sort().map((name) => join(directory, name))
  } catch {
    return []
  }
}

export const serialPortsRoute = (environment: SetupEnvironment): SetupRoute => ({
  method: "GET",
  path: "/api/serial-ports",
  handle: () =>
    Effect.gen(function*() {
      const config = yield* configIfValid(environment)
      const ports = byIdPaths().flatMap((path): ReadonlyArray<SerialPortEntry> => {
        const device = deviceOf(path)
        // A link whose device is gone (unplugged a moment ago) is not a port to offer.
        if (device === path) return []
        const usedBy = config === undefined ? undefined : serialUser(config, path)?.label
        return [{ path, device, ...(usedBy === undefined ? {} : { usedBy }) }]
      })
      return ok({ ports })
    })
})
