import { Effect, Semaphore } from "effect"
import { loginPageHtml } from "../page/login-page.ts"
import { htmlReply, type WireReply } from "../wire-reply.ts"
import { makeLoginLimiter } from "./login-limiter.ts"
import { makeSetupCodes } from "./one-time-code.ts"
import { makeSessions, type Sessions } from "./sessions.ts"

export const sessionCookie = "scorebridge_setup"

/** The session cookie as the browser sent it, if any. */
export const cookieOf = (header: string | undefined): string | undefined => {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=")
    if (at > 0 && part.slice(0, at).trim() === sessionCookie) return part.slice(at + 1).trim()
  }
  return undefined
}

// HttpOnly: no script (an injected one included) reads it. SameSite=Strict: no other site's page
// sends it. No Secure flag: the page is plain HTTP on loopback or the venue network (no certificate).
const setCookie = (value: string) => `${sessionCookie}=${value}; HttpOnly; SameSite=Strict; Path=/`
const clearCookie = `${sessionCookie}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`

const toPage: Readonly<Record<string, string>> = { location: "/" }

export interface Login {
  readonly sessions: Sessions
  readonly announceFirstCode: Effect.Effect<void>
  /** `POST /login` with the form's body. */
  readonly login: (form: string, remote: string) => Effect.Effect<WireReply>
  /** `POST /logout`. */
  readonly logout: (cookie: string | undefined) => Effect.Effect<WireReply>
}

/** One-time codes exchanged for sessions, under the wrong-code limit. `announce` prints each new code. */
export const makeLogin = Effect.fnUntraced(function*(announce: (code: string) => Effect.Effect<void>) {
  const sessions = yield* makeSessions
  const limiter = yield* makeLoginLimiter
  const codes = yield* makeSetupCodes(announce)
  // One attempt at a time: two at once could both pass the limit before either counts as wrong.
  const turn = yield* Semaphore.make(1)
  const attempt = Effect.fnUntraced(function*(form: string, remote: string) {
    const waitMs = yield* limiter.waitMs
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000)
      yield* Effect.logWarning(`login from ${remote} refused: too many wrong setup codes, ${seconds} s to wait`)
      return htmlReply(429, loginPageHtml(`Too many wrong codes. Wait ${seconds} seconds, then try again (until then every code is refused, the right one too).`), {
        "retry-after": String(seconds)
      })
    }
    const typed = new URLSearchParams(form).get("code") ?? ""
    if (!(yield* codes.exchange(typed))) {
      yield* limiter.recordWrong
      yield* Effect.logWarning(`wrong setup code from ${remote}`)
      return htmlReply(401, loginPageHtml("Wrong code. Type the code on the last line 'setup code: …' the setup server printed: each code works once."))
    }
    const session = yield* sessions.open(remote)
    yield* Effect.logInfo(`${session.label} logged in`)
    return htmlReply(303, "", { ...toPage, "set-cookie": setCookie(session.cookie) })
  })
  const logout = Effect.fnUntraced(function*(cookie: string | undefined) {
    const label = yield* sessions.close(cookie)
    if (label !== undefined) yield* Effect.logInfo(`${label} logged out`)
    return htmlReply(303, "", { ...toPage, "set-cookie": clearCookie })
  })
  return {
    sessions,
    announceFirstCode: codes.announceFirst,
    login: (form, remote) => turn.withPermit(attempt(form, remote)),
    logout
  } satisfies Login
})
