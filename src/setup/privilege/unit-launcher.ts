import { readFile } from "node:fs/promises"
import { Console, Effect } from "effect"
import { writeAtomically } from "../config/atomic-file.ts"
import { announceFilePath, defaultRuntimeDirectory } from "./announce-file.ts"
import { awaitAnnounce, currentCode, type Waited } from "./announce-wait.ts"
import { environmentFile, setupUnit } from "./setup-unit.ts"
import type { Systemctl } from "./systemctl.ts"
import { environmentFileText, optionsOfEnvironmentFile, sameOptions, type UnitOptions } from "./unit-options.ts"

/**
 * `sudo scorebridge setup` on an installed machine: it serves nothing and reads no secret. It
 * hands `--lan`/`--port` to the setup unit, starts it (or asks the running one for a fresh code)
 * and prints what the unit announced. Answers the exit code.
 */
export interface Launcher {
  readonly systemctl: Systemctl
  /** The unit's announce file (default /run/scorebridge-setup/announce). */
  readonly announcePath?: string
  /** The unit's EnvironmentFile= (default /run/scorebridge-setup.env). */
  readonly environmentPath?: string
}

const journalHint = "see journalctl -u scorebridge-setup"
const exitFailed = 1

const firstLine = (text: string) => text.trim().split("\n")[0] ?? ""

const isActive = (systemctl: Systemctl) =>
  Effect.map(systemctl(["show", "-p", "ActiveState", "--value", setupUnit]), (ran) => ran.stdout.trim() === "active")

const runningOptions = (path: string): Effect.Effect<UnitOptions | undefined> =>
  Effect.promise(() => readFile(path, "utf8").then(optionsOfEnvironmentFile, () => undefined))

const howTo = "A fresh code: run `sudo scorebridge setup` again. Stop the page: `sudo scorebridge setup --stop` (it stops by itself after 30 minutes unused)."

const printed = (waited: Waited, what: string, note?: string): Effect.Effect<number> => {
  switch (waited._tag) {
    case "Announced":
      return Effect.as(Console.log([waited.text.trimEnd(), ...(note === undefined ? [] : [note]), howTo].join("\n")), 0)
    case "UnitDown":
      return Effect.as(Console.error(`${setupUnit} ${what} but is not running (${waited.state}): ${journalHint}`), exitFailed)
    case "TimedOut":
      return Effect.as(Console.error(`${setupUnit} ${what} but announced no page and code within 15 s: ${journalHint}`), exitFailed)
  }
}

/** systemctl VERB; on a refusal the message and 1, else undefined. */
const asked = (systemctl: Systemctl, args: ReadonlyArray<string>) =>
  Effect.flatMap(systemctl(args), (ran) =>
    ran.code === 0
      ? Effect.succeed(undefined)
      : Effect.as(Console.error(`systemctl ${args.join(" ")} failed: ${firstLine(ran.stderr) || `exit ${ran.code ?? "signal"}`} (${journalHint})`), exitFailed))

const freshCode = (launcher: Launcher, announcePath: string) =>
  Effect.gen(function*() {
    const previous = yield* currentCode(announcePath)
    const since = Date.now()
    const refused = yield* asked(launcher.systemctl, ["kill", "--kill-whom=main", "-s", "SIGUSR1", setupUnit])
    if (refused !== undefined) return refused
    return yield* printed(yield* awaitAnnounce(launcher.systemctl, announcePath, since, previous), "was asked for a fresh code", "The code printed before no longer logs in.")
  })

const started = (launcher: Launcher, options: UnitOptions, announcePath: string, restart: boolean) =>
  Effect.gen(function*() {
    const previous = yield* currentCode(announcePath)
    yield* Effect.promise(() => writeAtomically(launcher.environmentPath ?? environmentFile, environmentFileText(options), { mode: 0o644 }))
    const since = Date.now()
    const verb = restart ? "restart" : "start"
    const refused = yield* asked(launcher.systemctl, [verb, setupUnit])
    if (refused !== undefined) return refused
    return yield* printed(yield* awaitAnnounce(launcher.systemctl, announcePath, since, previous), restart ? "was restarted" : "was started")
  })

/** Starts the unit with these options, restarts it with other ones, or asks the running one for a fresh code. */
export const launchSetupUnit = (options: UnitOptions, launcher: Launcher): Effect.Effect<number> =>
  Effect.gen(function*() {
    const announcePath = launcher.announcePath ?? announceFilePath(defaultRuntimeDirectory)
    const active = yield* isActive(launcher.systemctl)
    const running = active ? yield* runningOptions(launcher.environmentPath ?? environmentFile) : undefined
    if (running !== undefined && sameOptions(running, options)) return yield* freshCode(launcher, announcePath)
    return yield* started(launcher, options, announcePath, active)
  })

/** `sudo scorebridge setup --stop`. */
export const stopSetupUnit = (launcher: Launcher): Effect.Effect<number> =>
  Effect.gen(function*() {
    const refused = yield* asked(launcher.systemctl, ["stop", setupUnit])
    if (refused !== undefined) return refused
    yield* Console.log(`${setupUnit} stopped: its codes and sessions are gone`)
    return 0
  })
