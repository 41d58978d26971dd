import { join } from "node:path"
import { Console, Effect, Semaphore } from "effect"
import { writeAtomically } from "../config/atomic-file.ts"
import type { SetupAnnounce } from "../setup-server.ts"

/**
 * The setup unit's announce file: the page's addresses and the current code, for the root CLI
 * (`sudo scorebridge setup`) to print. In the unit's RuntimeDirectory (0700, the setup user's):
 * only root and the unit read it, and systemd removes it when the unit stops.
 */
export interface Announced {
  readonly pages: ReadonlyArray<string>
  readonly code: string | undefined
}

export const defaultRuntimeDirectory = "/run/scorebridge-setup"

/** $RUNTIME_DIRECTORY (systemd sets it from RuntimeDirectory=) else the unit's default. */
export const announceFilePath = (runtimeDirectory = process.env["RUNTIME_DIRECTORY"]): string =>
  join(runtimeDirectory !== undefined && runtimeDirectory !== "" ? runtimeDirectory : defaultRuntimeDirectory, "announce")

const pageLine = (url: string) => `setup page: ${url}`
const codeLine = (code: string) => `setup code: ${code}`

export const announceText = ({ pages, code }: Announced): string =>
  [...pages.map(pageLine), ...(code === undefined ? [] : [codeLine(code)])].map((line) => `${line}\n`).join("")

/** What a file written by `announceText` says; other lines (none are written) are left out. */
export const parseAnnounce = (text: string): Announced => {
  const lines = text.split("\n")
  const pages = lines.filter((line) => /^setup page: http:\/\/\S+\/$/u.test(line)).map((line) => line.slice("setup page: ".length))
  const code = lines.map((line) => /^setup code: ([A-Z2-9]{4}-[A-Z2-9]{4})$/u.exec(line)?.[1]).find((found) => found !== undefined)
  return { pages, code }
}

/**
 * A SetupAnnounce that rewrites the file as a whole (temp + rename, 0600) on every address and
 * every code, so a reader sees the old lines or the new ones, never half. The addresses go to
 * stdout too (the unit's journal); a code does not: the journal is read by more people (group
 * adm, systemd-journal) and for longer than the code lives, so it only says a new one is ready.
 */
export const announceFileWriter = (path: string): Effect.Effect<SetupAnnounce> =>
  Effect.gen(function*() {
    const lock = yield* Semaphore.make(1)
    let state: Announced = { pages: [], code: undefined }
    const write = (next: (current: Announced) => Announced, journalLine: string) =>
      lock.withPermit(Effect.gen(function*() {
        state = next(state)
        yield* Console.log(journalLine)
        const text = announceText(state)
        yield* Effect.tryPromise(() => writeAtomically(path, text, { mode: 0o600 })).pipe(
          Effect.catch((error) => Effect.logError(`the announce file ${path} could not be written (sudo scorebridge setup will not find the code): ${String(error.cause)}`))
        )
      }))
    return {
      address: (url) => write((current) => ({ ...current, pages: [...current.pages, url] }), pageLine(url)),
      code: (code) => write((current) => ({ ...current, code }), `setup code: a new one is ready (sudo scorebridge setup prints it; codes are never logged)`)
    }
  })
