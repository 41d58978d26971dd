import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { Clock, Console, Effect, Schedule, Schema } from "effect"
import type { GuardFailure } from "./guard-rules.ts"
import { outboxOpensWith, packageOutboxSchema } from "./outbox-compatibility.ts"
import { type RollbackRecord, writeRollbackRecord } from "./rollback-record.ts"
import { type Ran, runTool } from "./run-tool.ts"

export interface RollbackPlan {
  /** The version kept in `<packageDirectory>/previous/`, to go back to. */
  readonly from: string
  /** The version that failed its watch. */
  readonly to: string
  readonly failure: GuardFailure
  readonly packageDirectory: string
  /** Another root for dpkg (tests, image builds): every call gets `--root DIR --force-script-chrootless`. */
  readonly root?: string | undefined
  /** How long dpkg's lock may be waited for: apt may still be running when the guard gives up. */
  readonly lockWaitMs?: number
  readonly lockRetryMs?: number
  readonly say?: (line: string) => Effect.Effect<void>
  /** The outbox the failed version leaves: not gone back from when the kept version could not open it. */
  readonly outboxFile?: string | undefined
}

class DpkgLocked extends Schema.TaggedError<DpkgLocked>()("DpkgLocked", { message: Schema.String }) {}
class DpkgFailed extends Schema.TaggedError<DpkgFailed>()("DpkgFailed", { message: Schema.String }) {}

// A reinstall runs maintainer scripts (stop, start the service): minutes at worst.
const dpkgTimeoutMs = 10 * 60_000

// The package's maintainer scripts read it: on the guard's own rollback, preinst keeps no copy of
// the failed version (it would replace the very package being installed) and postinst starts no
// guard (deploy/debian/preinst, postinst).
const rollbackEnv = { SCOREBRIDGE_ROLLBACK: "1" }

const run = (command: string, args: ReadonlyArray<string>, input?: string) =>
  runTool(command, args, { timeoutMs: dpkgTimeoutMs, env: rollbackEnv, ...(input === undefined ? {} : { input }) })

/** The last lines of what a command said, for the record and the journal. */
const tail = (text: string) => text.trim().split("\n").slice(-4).join(" | ").slice(-600)

// "dpkg frontend lock was locked by another process", "dpkg status database is locked by another process".
const lockedPattern = /\block(?:ed)?\b.*another process|unable to (?:acquire|lock)/iu

const rootArgs = (root: string | undefined) => (root === undefined ? [] : ["--root", root])

const dpkg = (root: string | undefined, args: ReadonlyArray<string>, input?: string) =>
  // --force-not-root: a test or an image build may run unprivileged in its own root.
  run("dpkg", [...rootArgs(root), ...(root === undefined ? [] : ["--force-script-chrootless", "--force-not-root"]), ...args], input).pipe(
    Effect.flatMap((ran): Effect.Effect<Ran, DpkgLocked | DpkgFailed> => {
      if (ran.status === 0) return Effect.succeed(ran)
      const message = `dpkg ${args.join(" ")} exited ${ran.status ?? "without starting"}: ${tail(ran.stderr || ran.stdout)}`
      return lockedPattern.test(ran.stderr) ? Effect.fail(new DpkgLocked({ message })) : Effect.fail(new DpkgFailed({ message }))
    })
  )

/** The installed version of scorebridge, or null when dpkg knows none. */
const installedVersion = (root: string | undefined) =>
  run("dpkg-query", [...rootArgs(root), "-W", "-f", "${Status}\t${Version}", "scorebridge"]).pipe(
    Effect.map((ran) => {
      const [status, version] = ran.stdout.split("\t")
      return ran.status === 0 && status?.endsWith(" installed") === true && version !== undefined ? version : null
    })
  )

const architecture = run("dpkg", ["--print-architecture"]).pipe(Effect.map((ran) => ran.stdout.trim()))

/**
 * The kept package of `version`: for this machine's architecture, else an `all` one. The package's
 * preinst names it with the version as dpkg gave it (epoch included); a copy made by hand with
 * dpkg-repack or dpkg-deb leaves the epoch out (1:0.2.0 → scorebridge_0.2.0_amd64.deb).
 */
export const keptPackage = (packageDirectory: string, version: string, arch: string) => {
  const previous = join(packageDirectory, "previous")
  const versions = [...new Set([version, version.replace(/^\d+:/u, "")])]
  const candidates = versions.flatMap((v) => [arch, "all"].map((a) => join(previous, `scorebridge_${v}_${a}.deb`)))
  const found = candidates.find((file) => existsSync(file))
  const held = existsSync(previous) ? readdirSync(previous).filter((name) => name.endsWith(".deb")).sort() : []
  return { found, expected: candidates[0]!, held }
}

type Say = (line: string) => Effect.Effect<void>
type WriteRecord = (result: Omit<RollbackRecord, "at" | "from" | "to" | "reason" | "reasonKind">) => Effect.Effect<RollbackRecord>

/** Writes the rollback record (what went how far); a record that cannot be written is said, not failed. */
const makeRecord = (plan: RollbackPlan, at: string, say: Say): WriteRecord => {
  const base = { at, from: plan.from, to: plan.to, reason: plan.failure.text, reasonKind: plan.failure.kind }
  return (result) =>
    writeRollbackRecord(plan.packageDirectory, { ...base, ...result }).pipe(
      Effect.tap((file) => say(`upgrade guard: rollback record written to ${file}`)),
      Effect.catch((e) => say(`upgrade guard: ${e.message}: the status page and /metrics will not show the rollback`)),
      Effect.as({ ...base, ...result })
    )
}

/** dpkg tried again while apt still holds its lock, up to `lockWaitMs`; its failure, if any, as text. */
const whileLocked = (plan: RollbackPlan, say: Say) => <A>(effect: Effect.Effect<A, DpkgLocked | DpkgFailed>) =>
  effect.pipe(
    Effect.tapError((e) => (e._tag === "DpkgLocked" ? say("upgrade guard: dpkg is locked (apt still running?): trying again") : Effect.void)),
    Effect.retry({
      schedule: Schedule.spaced(plan.lockRetryMs ?? 5_000).pipe(Schedule.upTo({ duration: plan.lockWaitMs ?? 10 * 60_000 })),
      while: (e) => e._tag === "DpkgLocked"
    }),
    Effect.as(null),
    Effect.catch((e) => Effect.succeed(e.message))
  )

/** The kept package to go back to, or why not: none is kept, or it could not open the outbox left. */
const packageToInstall = Effect.fnUntraced(function*(plan: RollbackPlan, say: Say) {
  const kept = keptPackage(plan.packageDirectory, plan.from, yield* architecture)
  if (kept.found === undefined) {
    const error = `no previous package is kept: ${kept.expected} does not exist (previous/ holds ${kept.held.length === 0 ? "nothing" : kept.held.join(", ")}). ` +
      `${plan.to} stays installed; install ${plan.from} by hand (sudo apt-get install scorebridge=${plan.from}) or a fixed version`
    return { error }
  }
  if (plan.outboxFile === undefined) return { found: kept.found }
  const outbox = outboxOpensWith(plan.outboxFile, yield* packageOutboxSchema(kept.found))
  if (!outbox.opens) {
    const error = `not going back: ${outbox.why}. ${plan.to} stays installed: install a fixed version ` +
      `(or ${plan.from} once the outbox is moved aside, losing what waits in it: docs/upgrades.md, "Going back a version")`
    return { error }
  }
  yield* say(`upgrade guard: ${outbox.why}`)
  return { found: kept.found }
})

/** `dpkg -i` of the kept package, then the hold; the record says how far it got. */
const reinstallAndHold = Effect.fnUntraced(function*(plan: RollbackPlan, say: Say, record: WriteRecord, kept: string) {
  const retried = whileLocked(plan, say)
  const installed = yield* retried(dpkg(plan.root, ["-i", kept]))
  const version = yield* installedVersion(plan.root)
  if (version !== plan.from) {
    const error = `${installed ?? `dpkg -i ${kept} ended`}; dpkg now reports ${version ?? "no scorebridge installed"}`
    yield* say(`upgrade guard: ROLLBACK FAILED: ${error}`)
    return yield* record({ reinstalled: false, held: false, error })
  }
  yield* say(`upgrade guard: ${plan.from} is installed again`)
  const held = yield* retried(dpkg(plan.root, ["--set-selections"], "scorebridge hold\n"))
  if (held !== null) {
    yield* say(`upgrade guard: cannot hold scorebridge: ${held}; the next unattended upgrade may install ${plan.to} again`)
    return yield* record({ reinstalled: true, held: false, error: `not held: ${held}` })
  }
  yield* say(`upgrade guard: scorebridge is held at ${plan.from}: sudo apt-mark unhold scorebridge once a fixed version is out`)
  return yield* record({ reinstalled: true, held: true })
})

/**
 * Goes back to the kept version after a failed watch: `dpkg -i` of the kept package (dpkg allows a
 * downgrade by default: `--force-downgrade` is on unless refused), then a hold (what `apt-mark hold`
 * writes: dpkg's selection, which works in another root too) so unattended upgrades do not bring
 * the failed version back, and the record for the daemon and the fleet. A record saying the
 * reinstall started is written first: if the guard dies in the middle, nobody reads "fine".
 * Never fails: what went wrong is in the record (and the journal).
 */
export const rollBack = (plan: RollbackPlan) =>
  Effect.gen(function*() {
    const say = plan.say ?? ((line: string) => Console.error(line))
    const at = new Date(yield* Clock.currentTimeMillis).toISOString()
    const record = makeRecord(plan, at, say)
    yield* say(`upgrade guard: ${plan.to} failed its watch: ${plan.failure.text}; going back to ${plan.from}`)
    const kept = yield* packageToInstall(plan, say)
    if ("error" in kept) {
      yield* say(`upgrade guard: CANNOT ROLL BACK: ${kept.error}`)
      return yield* record({ reinstalled: false, held: false, error: kept.error })
    }
    yield* record({ reinstalled: false, held: false, error: `going back to ${plan.from} started at ${at} and did not report back: see journalctl -u scorebridge-upgrade-guard` })
    return yield* reinstallAndHold(plan, say, record, kept.found)
  })
