import { existsSync } from "node:fs"
import { join } from "node:path"

/** The hardened unit that serves the page as user scorebridge-setup (systemd/scorebridge-setup.service). */
export const setupUnit = "scorebridge-setup.service"

/** Its EnvironmentFile=: root's (/run is root's), read by systemd when the unit starts. */
export const environmentFile = "/run/scorebridge-setup.env"

/** The config the unit edits: the installed one, always (a checkout's own config runs setup as its user). */
export const installedConfig = "/etc/scorebridge/config.yaml"

/** Where a package (/lib, /usr/lib) or systemd/install.sh (/etc) puts units. */
const unitDirectories = ["/lib/systemd/system", "/usr/lib/systemd/system", "/etc/systemd/system"]

/** What decides whether `scorebridge setup` starts the unit: read from the machine, given in tests. */
export interface Machine {
  readonly exists: (path: string) => boolean
  readonly euid: number
}

export const thisMachine = (): Machine => ({ exists: existsSync, euid: process.geteuid?.() ?? -1 })

/**
 * Installed and asked by root for the installed config: the unit file is there and systemd runs
 * this machine. Anything else (a checkout, a container without systemd, a user) serves the page
 * itself, as the invoking user.
 */
export const startsSetupUnit = (machine: Machine, configPath: string): boolean =>
  machine.euid === 0 &&
  configPath === installedConfig &&
  machine.exists("/run/systemd/system") &&
  unitDirectories.some((directory) => machine.exists(join(directory, setupUnit)))
