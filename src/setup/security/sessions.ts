import { createHash, randomBytes } from "node:crypto"
import { Clock, Effect } from "effect"

/** A session ends after this long without a use: a phone left on a bench at the court is not a way in for long. */
export const sessionIdleMs = 15 * 60_000

/** And this long after its login, however busy: a cookie that leaked is not a way in for the rest of the day. */
export const sessionLifetimeMs = 4 * 60 * 60_000

/** What a request with a valid cookie is known by: a label for the journal, never the cookie. */
export interface OpenedSession {
  /** The cookie's value: 256 random bits, base64url. Sent once in Set-Cookie, never logged. */
  readonly cookie: string
  /** "session 2 from 192.168.1.20". */
  readonly label: string
}

export interface Sessions {
  readonly open: (remote: string) => Effect.Effect<OpenedSession>
  /**
   * The label of the first of `cookies` that names a live session: used within `sessionIdleMs` and
   * opened less than `sessionLifetimeMs` ago. `counts`: the technician did something, so the idle
   * time starts again; the page's background polling passes false and keeps nothing alive.
   */
  readonly find: (cookies: ReadonlyArray<string>, counts: boolean) => Effect.Effect<string | undefined>
  /** Ends every session `cookies` name (logout); the label of the first that was open. */
  readonly close: (cookies: ReadonlyArray<string>) => Effect.Effect<string | undefined>
}

interface Entry {
  readonly label: string
  readonly openedAt: number
  lastUsedAt: number
}

// Kept by the cookie's hash: the map holds nothing a memory dump could replay as a cookie.
const keyOf = (cookie: string) => createHash("sha256").update(cookie).digest("hex")

// A value that could be a cookie this server set; anything else (another site's, a forged one) is not even hashed.
const wellFormed = (cookie: string) => /^[A-Za-z0-9_-]{43}$/u.test(cookie)

const live = (entry: Entry, now: number) => now - entry.lastUsedAt < sessionIdleMs && now - entry.openedAt < sessionLifetimeMs

/** The setup server's browser sessions, in memory (a restart logs everyone out), timed on Effect's Clock. */
export const makeSessions: Effect.Effect<Sessions> = Effect.sync(() => {
  const open = new Map<string, Entry>()
  let opened = 0
  const sweep = (now: number) => {
    for (const [key, entry] of open) if (!live(entry, now)) open.delete(key)
  }
  const keys = (cookies: ReadonlyArray<string>) => cookies.filter(wellFormed).map(keyOf)
  return {
    open: (remote) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweep(now)
        opened += 1
        const cookie = randomBytes(32).toString("base64url")
        const label = `session ${opened} from ${remote}`
        open.set(keyOf(cookie), { label, openedAt: now, lastUsedAt: now })
        return { cookie, label }
      }),
    find: (cookies, counts) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweep(now)
        for (const key of keys(cookies)) {
          const entry = open.get(key)
          if (entry === undefined) continue
          if (counts) entry.lastUsedAt = now
          return entry.label
        }
        return undefined
      }),
    close: (cookies) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        sweep(now)
        let label: string | undefined
        for (const key of keys(cookies)) {
          label ??= open.get(key)?.label
          open.delete(key)
        }
        return label
      })
  }
})
