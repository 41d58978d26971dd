import { Effect } from "effect"
import { ok, type SetupRoute } from "../setup-route.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { configIfValid } from "./current-config.ts"
import { deviceOf, serialUser } from "./link-users.ts"
import { deviceDirectories, presentDevices } from "./page-devices.ts"

export interface SerialPortEntry {
  readonly path: string
  readonly device: string
  readonly usedBy?: string
}

/** `GET /api/serial-ports`'s answer. */
export interface SerialPortsAnswer { readonly ports: ReadonlyArray<SerialPortEntry> }

/**
 * The serial adapters present, by their stable names: only these are offered, /dev/ttyUSB0
 * changes with the order adapters are plugged in, a by-id name does not.
 */
export const serialPortsRoute = (environment: SetupEnvironment): SetupRoute => ({
  method: "GET",
  path: "/api/serial-ports",
  handle: () =>
    Effect.gen(function*() {
      const config = yield* configIfValid(environment)
      const ports = (yield* presentDevices(deviceDirectories(), "serial")).flatMap((path): ReadonlyArray<SerialPortEntry> => {
        const device = deviceOf(path)
        // A link whose device is gone (unplugged a moment ago) is not a port to offer.
        if (device === path) return []
        const usedBy = config === undefined ? undefined : serialUser(config, path)?.label
        return [{ path, device, ...(usedBy === undefined ? {} : { usedBy }) }]
      })
      return ok({ ports } satisfies SerialPortsAnswer)
    })
})
