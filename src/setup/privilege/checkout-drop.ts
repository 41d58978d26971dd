import { accessSync, constants, lstatSync, readdirSync, readFileSync } from "node:fs"
import { dirname } from "node:path"
import { Console, Effect, Schema } from "effect"
import { configOwner, type PathFacts } from "./checkout-owner.ts"
import { type Account, accountOf } from "./checkout-passwd.ts"
import { statusProblem } from "./checkout-verify.ts"

/**
 * `sudo scorebridge setup --config FILE` from a checkout: the page never serves as root. Started
 * as root, the process becomes the config's owner (ids and supplementary groups, no capability
 * left) before it opens the config or listens; anything short of that ends it instead.
 */
export class CheckoutDropRefused extends Schema.TaggedError<CheckoutDropRefused>()("CheckoutDropRefused", {
  message: Schema.String
}) {}

const refuse = (message: string) => new CheckoutDropRefused({ message })

const kindOf = (path: string): PathFacts => {
  const stats = lstatSync(path, { throwIfNoEntry: false })
  if (stats === undefined) return { path, kind: "missing", uid: -1, mode: 0 }
  const kind = stats.isSymbolicLink() ? "symlink" : stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other"
  return { path, kind, uid: stats.uid, mode: stats.mode }
}

const ownerOf = (configPath: string): Effect.Effect<number, CheckoutDropRefused> =>
  Effect.try({ try: () => configOwner(kindOf(configPath), kindOf(dirname(configPath))), catch: (error) => refuse(`could not look at ${configPath}: ${String(error)}`) }).pipe(
    Effect.flatMap((decision) => decision._tag === "Owner" ? Effect.succeed(decision.uid) : Effect.fail(refuse(decision.message)))
  )

const accountFor = (configPath: string, uid: number): Effect.Effect<Account, CheckoutDropRefused> =>
  Effect.try({ try: () => accountOf(readFileSync("/etc/passwd", "utf8"), uid), catch: (error) => refuse(`could not read /etc/passwd to find uid ${uid}: ${String(error)}`) }).pipe(
    Effect.flatMap((account) =>
      account !== undefined ? Effect.succeed(account) : Effect.fail(refuse(
        `${configPath} is owned by uid ${uid}, which /etc/passwd does not name: give the file and its directory to a user of this machine (sudo chown USER ${configPath}), or install the package (sudo scorebridge setup then runs it as the scorebridge-setup user)`
      ))
    )
  )

// libuv's io_uring keeps the credentials it started with after setuid (CVE-2024-22017); Node leaves it off unless asked.
const ioUringAsked = (): boolean => (process.env["UV_USE_IO_URING"] ?? "0") !== "0"

// Node has it on Linux (getgrouplist: the user's groups from every source the system knows), @types/node does not name it.
interface Credentials {
  readonly initgroups: (user: string, extraGroup: number) => void
  readonly setgid: (id: number) => void
  readonly setuid: (id: number) => void
}
const credentials = process as unknown as Credentials

/** Groups first, then the group, then the user: once the uid is not 0 the others may no longer change. */
const become = (account: Account): Effect.Effect<void, CheckoutDropRefused> =>
  Effect.try({
    try: () => {
      credentials.initgroups(account.name, account.gid)
      credentials.setgid(account.gid)
      credentials.setuid(account.uid)
    },
    catch: (error) => refuse(`could not become ${account.name} (uid ${account.uid}, gid ${account.gid}): ${String(error)}; nothing was served`)
  })

/** Whether root can be had back: it must not (no saved uid 0, no CAP_SETUID). */
const regainsRoot = (): boolean => {
  try {
    credentials.setuid(0)
    return true
  } catch {
    return false
  }
}

const idsProblem = (account: Account): string | undefined =>
  [process.getuid?.(), process.geteuid?.()].some((id) => id !== account.uid) || [process.getgid?.(), process.getegid?.()].some((id) => id !== account.gid)
    ? `the process's ids are uid ${process.getuid?.()}/${process.geteuid?.()}, gid ${process.getgid?.()}/${process.getegid?.()}`
    : undefined

/** Every thread's view (libuv's pool and V8's threads too): setuid must have reached them all. */
const threadsProblem = (account: Account): string | undefined =>
  readdirSync("/proc/self/task").map((tid) => {
    const problem = statusProblem(readFileSync(`/proc/self/task/${tid}/status`, "utf8"), account)
    return problem === undefined ? undefined : `thread ${tid}: ${problem}`
  }).find((problem) => problem !== undefined)

const problemAfterDrop = (account: Account): string | undefined => {
  try {
    return idsProblem(account) ?? threadsProblem(account) ?? (regainsRoot() ? "setuid(0) still succeeds" : undefined)
  } catch (error) {
    return `could not read /proc/self: ${String(error)}`
  }
}

const verify = (account: Account): Effect.Effect<void, CheckoutDropRefused> =>
  Effect.sync(() => problemAfterDrop(account)).pipe(
    Effect.flatMap((problem) =>
      problem === undefined ? Effect.void : Effect.fail(refuse(`dropping root to ${account.name} did not hold (${problem}): setup stops rather than serve with privileges`))
    )
  )

/** After the drop: the owner must be able to write the config's directory (the config, its kept versions, the token). */
const writable = (configPath: string, account: Account): Effect.Effect<void, CheckoutDropRefused> =>
  Effect.try({
    try: () => accessSync(dirname(configPath), constants.W_OK),
    catch: () =>
      refuse(
        `${dirname(configPath)} is not writable by ${account.name}, the owner of ${configPath} whom setup runs as: setup writes the config, its earlier versions and the token there. Give the directory to ${account.name} (sudo chown ${account.name} ${dirname(configPath)})`
      )
  })

const dropFromRoot = (configPath: string): Effect.Effect<void, CheckoutDropRefused> =>
  Effect.gen(function*() {
    if (ioUringAsked()) return yield* Effect.fail(refuse("UV_USE_IO_URING is set: libuv's io_uring would keep root's rights after the drop (CVE-2024-22017). Unset it and start setup again"))
    const account = yield* accountFor(configPath, yield* ownerOf(configPath))
    yield* become(account)
    yield* verify(account)
    yield* writable(configPath, account)
    yield* Console.log(`setup runs as ${account.name} (uid ${account.uid}), the owner of ${configPath}: root was given up before anything was opened`)
  })

/**
 * Started as root: become the config's owner, or fail with what to do. Anyone else: nothing to
 * do (a checkout runs as the invoking user; the installed unit starts as its own user).
 */
export const dropToConfigOwner = (configPath: string): Effect.Effect<void, CheckoutDropRefused> =>
  Effect.suspend(() => process.geteuid?.() === 0 ? dropFromRoot(configPath) : Effect.void)
