import { dirname, join } from "node:path"

/** How the setup server has the running daemon re-read its config after a save. */
export type DaemonReload =
  /** `systemctl reload-or-restart UNIT`: the installed service (restarted when it is not running, e.g. it stopped on the example config). */
  | { readonly _tag: "systemd"; readonly unit: string }
  /** SIGHUP to a daemon run by hand (`scorebridge run`, tests): its pid. */
  | { readonly _tag: "pid"; readonly pid: number }
  /** The setup unit's: scorebridge-reload.path sees the config (or the token) replaced and reloads the bridge as root; the page does nothing. */
  | { readonly _tag: "path-unit" }
  /** Nothing to reload: the page says the daemon must be started. */
  | { readonly _tag: "none" }

/** Where the setup server's files are, fixed when `scorebridge setup` starts. */
export interface SetupEnvironment {
  /** The config the page edits: the one source of truth (/etc/scorebridge/config.yaml). */
  readonly configPath: string
  /** Beside the config: `credentials/` (the token, as scorebridge-set-token stores it), kept versions, the change journal. */
  readonly configDirectory: string
  /** `<configDirectory>/credentials`: `credential: NAME` in the config means the file NAME here (systemd's LoadCredential= in the unit). */
  readonly credentialsDirectory: string
  readonly reload: DaemonReload
  /** `--lan`: the page is served on the venue's network, and a listening step may bind it too (else loopback only). */
  readonly lan: boolean
}

export const setupEnvironment = (configPath: string, reload: DaemonReload, lan = false): SetupEnvironment => {
  const configDirectory = dirname(configPath)
  return { configPath, configDirectory, credentialsDirectory: join(configDirectory, "credentials"), reload, lan }
}
