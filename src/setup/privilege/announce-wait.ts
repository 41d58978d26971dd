import { readFile, stat } from "node:fs/promises"
import { Effect, Option } from "effect"
import { parseAnnounce } from "./announce-file.ts"
import { setupUnit } from "./setup-unit.ts"
import type { Systemctl } from "./systemctl.ts"

/** How long `sudo scorebridge setup` waits for the unit's page and code before it says what went wrong. */
export const announceWaitMs = 15_000
const askEveryMs = 200

export interface AnnounceRead {
  readonly text: string
  readonly mtimeMs: number
}

const readAnnounce = (path: string): Effect.Effect<AnnounceRead | undefined> =>
  Effect.promise(async () => {
    try {
      const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)])
      return { text, mtimeMs: info.mtimeMs }
    } catch {
      // Not written yet (the unit is starting), or the unit stopped and systemd removed its directory.
      return undefined
    }
  })

/** The code in the announce file now, if any: the one a fresh code must differ from. */
export const currentCode = (path: string): Effect.Effect<string | undefined> =>
  Effect.map(readAnnounce(path), (read) => read === undefined ? undefined : parseAnnounce(read.text).code)

/** A file the unit wrote after `sinceMs` (or with another code than `previous`: the file system's clock is coarse), with a code in it. */
export const isFresh = (read: AnnounceRead | undefined, sinceMs: number, previous: string | undefined): boolean => {
  if (read === undefined) return false
  const { code } = parseAnnounce(read.text)
  return code !== undefined && (read.mtimeMs > sinceMs || (previous !== undefined && code !== previous))
}

export type Waited =
  | { readonly _tag: "Announced"; readonly text: string }
  | { readonly _tag: "UnitDown"; readonly state: string }
  | { readonly _tag: "TimedOut" }

const unitState = (systemctl: Systemctl) =>
  Effect.map(systemctl(["show", "-p", "ActiveState", "-p", "Result", "--value", setupUnit]), (ran) => ran.stdout.trim().split("\n"))

const untilAnnounced = (systemctl: Systemctl, path: string, sinceMs: number, previous: string | undefined): Effect.Effect<Waited> =>
  Effect.gen(function*() {
    while (true) {
      const read = yield* readAnnounce(path)
      if (read !== undefined && isFresh(read, sinceMs, previous)) return { _tag: "Announced", text: read.text } as const
      const [active = "unknown", result = "unknown"] = yield* unitState(systemctl)
      if (active === "failed" || active === "inactive") return { _tag: "UnitDown", state: `${active}, result ${result}` } as const
      yield* Effect.sleep(askEveryMs)
    }
  })

/**
 * Waits (at most 15 s) for the unit to announce: the file fresh, with a code. Gives up at once
 * when the unit is no longer running (it failed, or exited on a refused option).
 */
export const awaitAnnounce = (systemctl: Systemctl, path: string, sinceMs: number, previous: string | undefined): Effect.Effect<Waited> =>
  untilAnnounced(systemctl, path, sinceMs, previous).pipe(
    Effect.timeoutOption(announceWaitMs),
    Effect.map(Option.getOrElse((): Waited => ({ _tag: "TimedOut" })))
  )
