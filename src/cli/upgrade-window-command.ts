import { Clock, Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { loadConfig } from "../config/load.ts"
import { askDaemon } from "../upgrade/daemon-status.ts"
import { readDeferredSince, writeDeferredSince } from "../upgrade/deferral-state.ts"
import { defaultPackageDirectory, packageDirectory } from "../upgrade/rollback-record.ts"
import { decideUpgradeWindow, type WindowVerdict } from "../upgrade/upgrade-window.ts"
import { configFlag } from "./config-flag.ts"
import { withPrintableConsole } from "./printable.ts"

/**
 * systemd's ExecCondition=: 0 runs the unit, 1–254 skip it quietly, 255 is a failure. Everything
 * that is not a good moment, a config that cannot be read included, is 1: apt tries again at its
 * next run.
 */
const exitNotNow = 1

const asJson = (verdict: WindowVerdict) =>
  JSON.stringify({ ...verdict, deferredSince: verdict.deferredSince === null ? null : new Date(verdict.deferredSince).toISOString() })

export const upgradeWindowCommand = Command.make(
  "upgrade-window",
  {
    config: configFlag,
    packageDir: Flag.String("package-dir").pipe(
      Flag.withDescription(`The package's directory, where the time of the first deferral is kept (default: $SCOREBRIDGE_PACKAGE_DIR, else ${defaultPackageDirectory})`),
      Flag.optional
    ),
    json: Flag.Boolean("json").pipe(Flag.withDescription("Print the verdict as one JSON object"), Flag.withDefault(false))
  },
  Effect.fn("upgradeWindowCommand")(function*({ config: path, packageDir, json }) {
    const stateDir = Option.getOrElse(packageDir, () => packageDirectory())
    const config = yield* loadConfig(path).pipe(Effect.result)
    if (config._tag === "Failure") {
      // The bridge would not start again with this file: an upgrade's restart would stop it.
      yield* Console.error(`${config.failure.message}\nnot a good moment to upgrade: the config does not load (scorebridge check --config ${path} says why)`)
      process.exitCode = exitNotNow
      return
    }
    const deferredSince = yield* readDeferredSince(stateDir).pipe(
      Effect.catchTag("DeferralStateError", (error) => Console.error(`warning: ${error.message}`).pipe(Effect.as(null)))
    )
    const verdict = decideUpgradeWindow({
      daemon: yield* askDaemon(config.success.status.listen),
      options: config.success.upgrades.window,
      now: yield* Clock.currentTimeMillis,
      deferredSince
    })
    if (verdict.deferredSince !== deferredSince) {
      yield* writeDeferredSince(stateDir, verdict.deferredSince).pipe(
        Effect.catchTag("DeferralStateError", (error) =>
          Console.error(`warning: ${error.message} (upgrades.window.maxDeferHours cannot be counted)`))
      )
    }
    if (json) yield* Console.log(asJson(verdict))
    else for (const line of [...verdict.reasons, verdict.summary]) yield* Console.log(line)
    if (!verdict.ok) process.exitCode = exitNotNow
  }, withPrintableConsole)
).pipe(
  Command.withDescription(
    `Say whether now is a good moment to upgrade scorebridge (no court with a live event or a click waiting, upgrades: in the config); exit 0 when it is, ${exitNotNow} when not or when the config does not load`
  ),
  Command.withExamples([{ command: "scorebridge upgrade-window --config /etc/scorebridge/config.yaml", description: "What the package's ExecCondition= of apt-daily-upgrade.service runs" }])
)
