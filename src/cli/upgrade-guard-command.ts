import { existsSync } from "node:fs"
import { join } from "node:path"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { loadConfig } from "../config/load.ts"
import { outboxFileName } from "../delivery/outbox-database.ts"
import { guardSettings } from "../upgrade/guard-rules.ts"
import { watchUpgrade } from "../upgrade/guard-watch.ts"
import { rollBack } from "../upgrade/reinstall.ts"
import { clearRollbackRecord, defaultPackageDirectory, packageDirectory } from "../upgrade/rollback-record.ts"
import { lookAtSystem } from "../upgrade/system-look.ts"
import { configFlag } from "./config-flag.ts"
import { withPrintableConsole } from "./printable.ts"

// The unit's StateDirectory=scorebridge (systemd/scorebridge.service): where the outbox is.
const defaultStateDirectory = "/var/lib/scorebridge"

/** Exit statuses: 0 passed (or the guard is off), 1 rolled back, 2 failed and could not go back. */
const exitRolledBack = 1
const exitStuck = 2

// When the config does not load, the daemon does not start either: the guard still watches, on these.
const fallback = { listen: "127.0.0.1:8370", serviceUrl: "https://invalid.invalid/", guard: { enabled: true, watchMinutes: 15, maxRestarts: 3, deliverWithinMinutes: 10 } }

/**
 * `scorebridge upgrade-guard`: started by the package's postinst after an upgrade (unit
 * scorebridge-upgrade-guard.service), it watches the new version for `upgrades.guard.watchMinutes`
 * and, when it fails, reinstalls the kept previous package, holds it and writes the rollback record
 * the daemon shows (docs/upgrades.md, "Rolling back by itself").
 */
export const upgradeGuardCommand = Command.make(
  "upgrade-guard",
  {
    from: Flag.String("from").pipe(Flag.withDescription("The version before the upgrade (kept in <package-dir>/previous/)")),
    to: Flag.String("to").pipe(Flag.withDescription("The version the upgrade installed, to be watched")),
    config: configFlag,
    packageDir: Flag.String("package-dir").pipe(
      Flag.withDescription(`The package's directory: previous/ and rollback.json (default: $SCOREBRIDGE_PACKAGE_DIR, else ${defaultPackageDirectory}, under --root when given)`),
      Flag.optional
    ),
    stateDir: Flag.String("state-dir").pipe(
      Flag.withDescription(`The bridge's state directory, where the outbox is (default: ${defaultStateDirectory}, the unit's StateDirectory=, under --root when given)`),
      Flag.optional
    ),
    root: Flag.String("root").pipe(Flag.withDescription("Another root for dpkg (tests, image builds): dpkg --root DIR --force-script-chrootless; systemd is not asked"), Flag.optional),
    watchMinutes: Flag.Finite("watch-minutes").pipe(Flag.withDescription("Watch this long instead of upgrades.guard.watchMinutes (tests)"), Flag.optional),
    pollSeconds: Flag.Finite("poll-seconds").pipe(Flag.withDescription("Between two looks at the new version"), Flag.withDefault(5)),
    lockWaitSeconds: Flag.Finite("lock-wait-seconds").pipe(Flag.withDescription("How long to wait for dpkg's lock (apt still running) before giving up"), Flag.withDefault(600))
  },
  Effect.fn("upgradeGuardCommand")(function*(input) {
    const root = Option.getOrUndefined(input.root)
    const directory = Option.getOrElse(input.packageDir, () => (root === undefined ? packageDirectory() : join(root, defaultPackageDirectory)))
    const loaded = yield* loadConfig(input.config).pipe(Effect.result)
    if (loaded._tag === "Failure") {
      yield* Console.error(`upgrade guard: the config does not load, so the bridge cannot start either; watching with the default settings:\n${loaded.failure.message}`)
    }
    const config = loaded._tag === "Success"
      ? { listen: loaded.success.status.listen, serviceUrl: loaded.success.service.baseUrl, guard: loaded.success.upgrades.guard }
      : fallback
    if (!config.guard.enabled) {
      yield* Console.log(`upgrade guard: off (upgrades.guard.enabled: false): ${input.to} is not watched and will not be rolled back`)
      return
    }
    const settings = guardSettings({ ...config.guard, watchMinutes: Option.getOrElse(input.watchMinutes, () => config.guard.watchMinutes) })
    yield* Console.log(
      `upgrade guard: watching ${input.to} (upgraded from ${input.from}) for ${settings.watchMs / 60_000} min: READY within ${settings.readyWithinMs / 60_000} min, ` +
        `at most ${settings.maxRestarts} restarts, delivering within ${settings.deliverWithinMs / 60_000} min while items wait and the service answers`
    )
    const verdict = yield* watchUpgrade(
      { settings, pollMs: input.pollSeconds * 1000 },
      lookAtSystem({ statusListen: config.listen, serviceUrl: config.serviceUrl, systemd: root === undefined && existsSync("/run/systemd/system") })
    )
    if (verdict._tag === "Passed") {
      yield* Console.log(`upgrade guard: ${input.to} passed its watch${verdict.note === null ? "" : `; note: ${verdict.note}`}`)
      // An earlier rollback is over once a later version runs well.
      yield* clearRollbackRecord(directory).pipe(Effect.catch((e) => Console.error(`upgrade guard: ${e.message}`)))
      return
    }
    const record = yield* rollBack({
      from: input.from,
      to: input.to,
      failure: verdict.failure,
      packageDirectory: directory,
      root,
      lockWaitMs: input.lockWaitSeconds * 1000,
      outboxFile: join(Option.getOrElse(input.stateDir, () => join(root ?? "/", defaultStateDirectory)), outboxFileName)
    })
    process.exitCode = record.reinstalled ? exitRolledBack : exitStuck
  }, withPrintableConsole)
).pipe(
  Command.withDescription(
    `Watch a newly upgraded version (READY, restarts, deliveries) and, when it fails, reinstall and hold the kept previous package; exit 0 passed, ${exitRolledBack} rolled back, ${exitStuck} failed and could not go back`
  ),
  Command.withExamples([{ command: "scorebridge upgrade-guard --from 0.1.0 --to 0.2.0", description: "What the package's scorebridge-upgrade-guard.service runs after an upgrade" }])
)
