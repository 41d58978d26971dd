import { Effect } from "effect"
import { runChecked } from "../../process/child-process.ts"
import type { SetupEnvironment } from "../setup-environment.ts"

/** What the reload after a save came to, in words the page shows. */
export interface ReloadOutcome {
  readonly ok: boolean
  readonly message: string
}

const firstLine = (text: string): string => text.trim().split("\n")[0] ?? ""

const systemctl = (unit: string, restart: boolean): Effect.Effect<ReloadOutcome> => {
  // reload-or-restart: a daemon that stopped (e.g. on the example config) is started with the new one.
  // restart: systemd copies the token credential (LoadCredential=) only when the unit starts.
  const verb = restart ? "restart" : "reload-or-restart"
  return runChecked("systemctl", [verb, unit], { timeoutMs: 30_000 }).pipe(
    Effect.as<ReloadOutcome>({ ok: true, message: `${unit} ${restart ? "restarted with the new token and config" : "reloaded with the new config"} (systemctl ${verb})` }),
    Effect.catch((error) =>
      Effect.succeed<ReloadOutcome>(
        error._tag === "ChildStartError" && error.reason === "not-found"
          ? { ok: false, message: `systemctl is not on this machine, so ${unit} was not reloaded: restart the daemon by hand, or send it SIGHUP` }
          : { ok: false, message: `systemctl ${verb} ${unit} failed: ${firstLine(error._tag === "ChildFailed" ? error.stderr : "") || error.message} (see journalctl -u ${unit})` }
      ))
  )
}

const hangup = (pid: number): ReloadOutcome => {
  try {
    process.kill(pid, "SIGHUP")
    return { ok: true, message: `SIGHUP sent to the daemon (pid ${pid}): it re-reads the config, and keeps the old one if the new one does not load` }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return {
      ok: false,
      message: code === "ESRCH"
        ? `no process ${pid} (the daemon stopped?): start it again`
        : `SIGHUP to pid ${pid} refused (${code ?? "unknown error"}): run setup as the daemon's user or root`
    }
  }
}

/**
 * The setup unit may not reload the bridge (no root, no D-Bus right): systemd sees the file
 * replaced and does it, scorebridge-reload.path for the config, scorebridge-token.path (a
 * restart: the credential is copied only at start) for the token.
 */
const byPathUnit = (restart: boolean): ReloadOutcome => ({
  ok: true,
  message: restart
    ? "the bridge restarts by itself with the new token and config (scorebridge-token.path and scorebridge-reload.path; journalctl -u scorebridge shows it)"
    : "the bridge reloads by itself with the new config (scorebridge-reload.path; journalctl -u scorebridge shows it)"
})

const reloaded = (environment: SetupEnvironment, restart: boolean): Effect.Effect<ReloadOutcome> => {
  const reload = environment.reload
  switch (reload._tag) {
    case "systemd":
      return systemctl(reload.unit, restart)
    case "pid":
      return Effect.sync(() => hangup(reload.pid))
    case "path-unit":
      return Effect.succeed(byPathUnit(restart))
    case "none":
      return Effect.succeed({ ok: false, message: "no daemon to reload was named: start it (systemctl start scorebridge) to run the new config" })
  }
}

/**
 * Has the running daemon re-read its config, the way `scorebridge setup` was told (--unit,
 * --daemon-pid); `restart` after a new token, which a systemd unit only loads when it starts.
 * Never fails: the outcome says.
 */
export const reloadDaemon = (environment: SetupEnvironment, options: { readonly restart?: boolean } = {}): Effect.Effect<ReloadOutcome> =>
  reloaded(environment, options.restart === true)
