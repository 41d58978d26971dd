import { createHash, randomBytes } from "node:crypto"
import { Clock, Effect } from "effect"

/** A session ends after this long without a request: a phone left on a bench at the court is not a way in for long. */
export const sessionIdleMs = 15 * 60_000

/** What a request with a valid cookie is known by: a label for the journal, never the cookie. */
export interface OpenedSession {
  /** The cookie's value: 256 random bits, base64url. Sent once in Set-Cookie, never logged. */
  readonly cookie: string
  /** "session 2 from 192.168.1.20". */
  readonly label: string
}

export interface Sessions {
  readonly open: (remote: string) => Effect.Effect<OpenedSession>
  /** The session's label when `cookie` names one used within `sessionIdleMs`; counts as a use. */
  readonly find: (cookie: string | undefined) => Effect.Effect<string | undefined>
  /** Ends it (logout); its label when it was open. */
  readonly close: (cookie: string | undefined) => Effect.Effect<string | undefined>
}

interface Entry {
  readonly label: string
  lastUsedAt: number
}

// Kept by the cookie's hash: the map holds nothing a memory dump could replay as a cookie.
const keyOf = (cookie: string) => createHash("sha256").update(cookie).digest("hex")

/** The setup server's browser sessions, in memory (a restart logs everyone out), timed on Effect's Clock. */
export const makeSessions: Effect.Effect<Sessions> = Effect.sync(() => {
  const open = new Map<string, Entry>()
  let opened = 0
  const sweep = (now: number) => {
    for (const [key, entry] of open) if (now - entry.lastUsedAt >= sessionIdleMs) open.delete(key)
  }
  return {
    open: (remote) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweep(now)
        opened += 1
        const cookie = randomBytes(32).toString("base64url")
        const label = `session ${opened} from ${remote}`
        open.set(keyOf(cookie), { label, lastUsedAt: now })
        return { cookie, label }
      }),
    find: (cookie) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        if (cookie === undefined || cookie === "") return undefined
        sweep(now)
        const entry = open.get(keyOf(cookie))
        if (entry === undefined) return undefined
        entry.lastUsedAt = now
        return entry.label
      }),
    close: (cookie) =>
      Effect.sync(() => {
        if (cookie === undefined || cookie === "") return undefined
        const key = keyOf(cookie)
        const label = open.get(key)?.label
        open.delete(key)
        return label
      })
  }
})
