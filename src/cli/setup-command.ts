import { accessSync, constants, existsSync } from "node:fs"
import { hostname } from "node:os"
import { dirname, resolve } from "node:path"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { bridgeVersion } from "../domain/version.ts"
import { pinoLoggerLayer } from "../observability/logger.ts"
import { listenAddresses } from "../setup/listen-addresses.ts"
import { dropToConfigOwner } from "../setup/privilege/checkout-drop.ts"
import { installedConfig, startsSetupUnit, thisMachine } from "../setup/privilege/setup-unit.ts"
import { runSystemctl } from "../setup/privilege/systemctl.ts"
import { launchSetupUnit, stopSetupUnit } from "../setup/privilege/unit-launcher.ts"
import { serveAsUnit } from "../setup/privilege/unit-serving.ts"
import { unitPortProblem } from "../setup/privilege/unit-options.ts"
import { type DaemonReload, setupEnvironment } from "../setup/setup-environment.ts"
import { setupRoutes } from "../setup/setup-routes.ts"
import { serveSetup } from "../setup/setup-server.ts"
import { configFlag } from "./config-flag.ts"

const exitRefused = 1
const exitUsage = 2
export const defaultSetupPort = 8380
const defaultUnit = "scorebridge.service"

/** Why this user cannot write the config's directory (the config, its kept versions, the token), or undefined. */
const unwritable = (directory: string): string | undefined => {
  try {
    accessSync(directory, constants.W_OK)
    return undefined
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT"
      ? `${directory} does not exist: install scorebridge first, or name a config in an existing directory with --config`
      : `scorebridge setup writes ${directory} (the config, its earlier versions, the token) and this user may not: run it with sudo, e.g. sudo scorebridge setup`
  }
}

/** How a save reaches the daemon: the pid given, else the unit when systemd runs this machine, else nobody (the page says to start it). */
const reloadOf = (pid: Option.Option<number>, unit: Option.Option<string>): DaemonReload =>
  Option.isSome(pid)
    ? { _tag: "pid", pid: pid.value }
    : Option.isSome(unit) || existsSync("/run/systemd/system")
    ? { _tag: "systemd", unit: Option.getOrElse(unit, () => defaultUnit) }
    : { _tag: "none" }

const refused = (message: string, exitCode: number) =>
  Effect.andThen(Console.error(message), Effect.sync(() => {
    process.exitCode = exitCode
  }))

interface SetupInput {
  readonly config: string
  readonly port: number
  readonly lan: boolean
  readonly daemonPid: Option.Option<number>
  readonly unit: Option.Option<string>
  readonly stop: boolean
  readonly serveUnit: boolean
}

const exited = (code: Effect.Effect<number>) =>
  Effect.flatMap(code, (exitCode) =>
    Effect.sync(() => {
      if (exitCode !== 0) process.exitCode = exitCode
    }))

/** Beside --serve-unit only --lan and --port: the unit's config and reload are fixed, whatever its EnvironmentFile= says. */
const servedByUnit = (input: SetupInput) => {
  const others = Option.isSome(input.daemonPid) || Option.isSome(input.unit) || input.stop || resolve(input.config) !== installedConfig
  if (others) return refused(`--serve-unit takes only --lan and --port N (it always serves ${installedConfig}); start it with sudo scorebridge setup`, exitUsage)
  const problem = unitPortProblem(input.port)
  if (problem !== undefined) return refused(problem, exitUsage)
  // The unit runs it as scorebridge-setup; typed by hand as root it would serve with every privilege.
  if (process.geteuid?.() === 0) return refused("--serve-unit is the mode scorebridge-setup.service runs as the user scorebridge-setup, never as root: start the page with sudo scorebridge setup", exitRefused)
  const why = unwritable(dirname(installedConfig))
  if (why !== undefined) return refused(why, exitRefused)
  return serveAsUnit({ lan: input.lan, port: input.port }).pipe(
    Effect.catchTag("SetupListenError", (error) => refused(error.message, exitRefused)),
    Effect.provide(pinoLoggerLayer("info"))
  )
}

/** Installed, as root: the unit serves; this process only starts it and prints what it announced. */
const launched = (input: SetupInput) => {
  if (Option.isSome(input.daemonPid) || Option.isSome(input.unit)) {
    return refused(`--daemon-pid and --unit are for a setup run by hand with --config FILE: the installed page reloads the bridge through scorebridge-reload.path`, exitUsage)
  }
  const problem = unitPortProblem(input.port)
  if (problem !== undefined) return refused(problem, exitUsage)
  return exited(launchSetupUnit({ lan: input.lan, port: input.port }, { systemctl: runSystemctl }))
}

const stopped = (input: SetupInput, installed: boolean) =>
  installed
    ? exited(stopSetupUnit({ systemctl: runSystemctl }))
    : refused(`--stop stops the installed setup page (scorebridge-setup.service, as root: sudo scorebridge setup --stop); a setup run here stops with Ctrl-C`, exitUsage)

/**
 * `scorebridge setup`: the setup page for one court after another, served until it has been idle
 * for 30 minutes. Exit 0 when it stops by itself, 130 when stopped (SIGTERM, Ctrl-C), 1 when it may not write the
 * config's directory or cannot listen, 2 for bad flags.
 */
export const setupCommand = Command.make(
  "setup",
  {
    config: configFlag,
    port: Flag.Int("port").pipe(Flag.withDescription(`Port of the setup page (default ${defaultSetupPort})`), Flag.withDefault(defaultSetupPort)),
    lan: Flag.Boolean("lan").pipe(
      Flag.withDescription("Listen on the machine's network addresses too (a phone at the court), not only on 127.0.0.1 and ::1 (an SSH tunnel)"),
      Flag.withDefault(false)
    ),
    daemonPid: Flag.Int("daemon-pid").pipe(Flag.withDescription("After a save, SIGHUP this pid (a daemon started by hand) instead of reloading the systemd unit"), Flag.optional),
    unit: Flag.String("unit").pipe(Flag.withDescription(`After a save, systemctl reload-or-restart this unit (default ${defaultUnit})`), Flag.optional),
    stop: Flag.Boolean("stop").pipe(Flag.withDescription("Installed: stop the setup page's unit (scorebridge-setup.service) now"), Flag.withDefault(false)),
    serveUnit: Flag.Boolean("serve-unit").pipe(
      Flag.withDescription("The mode scorebridge-setup.service runs (not for typing): serves the installed config, announces to /run/scorebridge-setup/announce"),
      Flag.withDefault(false)
    )
  },
  Effect.fn("setupCommand")(function*(input) {
    if (input.serveUnit) return yield* servedByUnit(input)
    const installed = startsSetupUnit(thisMachine(), resolve(input.config))
    if (input.stop) return yield* stopped(input, installed)
    if (installed) return yield* launched(input)
    if (input.port < 1 || input.port > 65535) return yield* refused("--port must be 1–65535", exitUsage)
    if (Option.isSome(input.daemonPid) && Option.isSome(input.unit)) return yield* refused("--daemon-pid and --unit name two ways to reload the daemon: give one", exitUsage)
    const environment = setupEnvironment(resolve(input.config), reloadOf(input.daemonPid, input.unit), input.lan)
    // Started as root from a checkout: become the config's owner before anything is opened or listened on.
    const notDropped = yield* dropToConfigOwner(environment.configPath).pipe(Effect.as(undefined), Effect.catchTag("CheckoutDropRefused", (error) => Effect.succeed(error.message)))
    if (notDropped !== undefined) return yield* refused(notDropped, exitRefused)
    const why = unwritable(environment.configDirectory)
    if (why !== undefined) return yield* refused(why, exitRefused)
    yield* Effect.gen(function*() {
      const routes = yield* setupRoutes(environment)
      yield* serveSetup({ port: input.port, addresses: listenAddresses(input.lan), hostname: hostname(), routes })
    }).pipe(
      Effect.scoped,
      Effect.catchTag("SetupListenError", (error) => refused(error.message, exitRefused)),
      Effect.provide(pinoLoggerLayer("info"))
    )
  })
).pipe(
  Command.withDescription(
    "Serve the setup page (one court at a time, from the browser): prints its address and a one-time code to log in; stops after 30 minutes without use. Installed, sudo scorebridge setup starts it as scorebridge-setup.service (user scorebridge-setup, no privileges) and prints what it announced"
  ),
  Command.withExamples([
    { command: "sudo scorebridge setup", description: "On the mini-PC, or through ssh -L 8380:127.0.0.1:8380: open http://127.0.0.1:8380/" },
    { command: "sudo scorebridge setup --lan", description: "Also on the venue network, for a phone at the court" },
    { command: "sudo scorebridge setup", description: "Run again while the page is up: prints a fresh code (the one before stops working)" },
    { command: "sudo scorebridge setup --stop", description: "Installed: stop the page now" }
  ])
)

/** Runs `setup` with the given arguments (without the leading `setup`), as `scorebridge setup …` would. */
export const runSetup = Command.runWith(setupCommand, { version: bridgeVersion })
