import { join } from "node:path"
import { daemonConfig, writeConfig } from "../../scripts/support/daemon-config.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type Resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * A config that loads, for a bridge nobody runs: its status address is free and its service does
 * not answer. The guard on it sees a new version that never gets READY.
 */
export const unansweredConfig = async (res: Resources): Promise<string> =>
  writeConfig(join(tempDir("guard-config", res), "config.yaml"), daemonConfig({
    service: { baseUrl: "http://127.0.0.1:9" },
    status: { listen: `127.0.0.1:${await freePort()}` },
    places: [{
      key: "court-1",
      sport: "basketball",
      scoreboard: { protocol: "lines", serial: { path: "/dev/serial/by-id/usb-FTDI_absent-if00-port0" }, options: { pattern: "^(?<home>\\d+)-(?<away>\\d+)$" } }
    }]
  }))
