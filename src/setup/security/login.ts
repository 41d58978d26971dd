import { Effect, Semaphore, type Scope } from "effect"
import { loginPageHtml } from "../page/login-page.ts"
import { htmlReply, type WireReply } from "../wire-reply.ts"
import { makeLoginLimiter, overallWindowMs, wrongCodesPerAddress } from "./login-limiter.ts"
import { type CodeCheck, codeLifetimeMs, makeSetupCodes } from "./one-time-code.ts"
import { makeSessions, type Sessions } from "./sessions.ts"

/**
 * The session cookie's name on `port`. Browsers do not scope cookies by port, so the name keeps two
 * setup servers (or this one and anything else on the same host) from overwriting each other's.
 */
export const sessionCookieName = (port: number): string => `scorebridge_setup_${port}`

/**
 * Every value of the cookie `name` in a Cookie header, in order. All of them are tried: a page on
 * another port of the same host may set a cookie of the same name, and a browser sends both.
 */
export const sessionCookieValues = (header: string | undefined, name: string): ReadonlyArray<string> =>
  (header ?? "").split(";").flatMap((part) => {
    const at = part.indexOf("=")
    return at > 0 && part.slice(0, at).trim() === name ? [part.slice(at + 1).trim()] : []
  })

const toPage: Readonly<Record<string, string>> = { location: "/" }

const newestCode = "type the newest code: the last line 'setup code: …' the setup server printed"

const minutes = (ms: number) => Math.round(ms / 60_000)

/** What the login page says about a code that did not log in, in words the technician can act on. */
const refusedCode: Readonly<Record<Exclude<CodeCheck, "right">, string>> = {
  wrong: "Wrong code. Type the code on the last line 'setup code: …' the setup server printed: each code works once.",
  expired: `That code expired: codes last ${minutes(codeLifetimeMs)} minutes, and the setup server printed a fresh one. Please ${newestCode}.`,
  renewed: `That code was replaced by a fresh one on the setup server's terminal. Please ${newestCode}.`,
  "guessed-at": `That code was replaced because too many wrong codes came from other clients. Please ${newestCode}.`
}

export interface Login {
  readonly sessions: Sessions
  readonly announceFirstCode: Effect.Effect<void>
  /** Retires the current code and prints a fresh one (the terminal asked: SIGUSR1, Enter). */
  readonly freshCode: Effect.Effect<void>
  /** `POST /login` with the form's body, from the client address `remote`. */
  readonly login: (form: string, remote: string) => Effect.Effect<WireReply>
  /** `POST /logout` with the values of the session cookie the request sent. */
  readonly logout: (cookies: ReadonlyArray<string>) => Effect.Effect<WireReply>
  /** The session cookie's name on this server's port: `sessionCookieValues(header, cookieName)`. */
  readonly cookieName: string
}

export interface LoginOptions {
  /** Prints each new code, where the technician reads it. */
  readonly announce: (code: string) => Effect.Effect<void>
  /** The server's port, which the cookie's name carries. */
  readonly port: number
}

const tooMany = (remote: string, waitMs: number) => {
  const seconds = Math.ceil(waitMs / 1000)
  return Effect.as(
    Effect.logWarning(`login from ${remote} refused: too many wrong setup codes from it, ${seconds} s to wait`),
    htmlReply(
      429,
      loginPageHtml(
        `Too many wrong codes from this device (${wrongCodesPerAddress} a minute). Wait ${seconds} seconds, then try again: each try before then makes the wait longer.`
      ),
      { "retry-after": String(seconds) }
    )
  )
}

/**
 * One-time codes exchanged for sessions, under the wrong-code limits (per client address, and
 * overall by retiring the code). Scoped: the fiber that retires expired codes lives in it.
 */
export const makeLogin = Effect.fnUntraced(function*(options: LoginOptions): Effect.fn.Return<Login, never, Scope.Scope> {
  const sessions = yield* makeSessions
  const limiter = yield* makeLoginLimiter
  const codes = yield* makeSetupCodes(options.announce)
  const cookieName = sessionCookieName(options.port)
  // HttpOnly: no script (an injected one included) reads it. SameSite=Strict: no other site's page
  // sends it. No Secure flag: the page is plain HTTP on loopback or the venue network (no certificate).
  const setCookie = (value: string) => `${cookieName}=${value}; HttpOnly; SameSite=Strict; Path=/`
  const clearCookie = `${cookieName}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`
  // One attempt at a time: two at once could both pass the limit before either counts as wrong.
  const turn = yield* Semaphore.make(1)
  const wrongCode = Effect.fnUntraced(function*(remote: string) {
    yield* Effect.logWarning(`wrong setup code from ${remote}`)
    const bound = yield* limiter.recordWrong(remote)
    if (bound === undefined) return
    yield* Effect.logWarning(
      `wrong setup codes reached the bound (from ${bound.addresses} address${bound.addresses === 1 ? "" : "es"} within ${minutes(overallWindowMs)} minutes): the code is retired, a fresh one follows`
    )
    yield* codes.retire("guessed-at")
  })
  const attempt = Effect.fnUntraced(function*(form: string, remote: string) {
    const waitMs = yield* limiter.admit(remote)
    if (waitMs > 0) return yield* tooMany(remote, waitMs)
    const checked = yield* codes.exchange(new URLSearchParams(form).get("code") ?? "")
    if (checked !== "right") {
      if (checked === "wrong") yield* wrongCode(remote)
      else yield* Effect.logInfo(`setup code from ${remote} no longer valid (${checked})`)
      return htmlReply(401, loginPageHtml(refusedCode[checked]))
    }
    const session = yield* sessions.open(remote)
    yield* Effect.logInfo(`${session.label} logged in`)
    return htmlReply(303, "", { ...toPage, "set-cookie": setCookie(session.cookie) })
  })
  const logout = Effect.fnUntraced(function*(cookies: ReadonlyArray<string>) {
    const label = yield* sessions.close(cookies)
    if (label !== undefined) yield* Effect.logInfo(`${label} logged out`)
    return htmlReply(303, "", { ...toPage, "set-cookie": clearCookie })
  })
  return {
    sessions,
    announceFirstCode: codes.announceFirst,
    freshCode: Effect.andThen(Effect.logInfo("a fresh setup code was asked for on the terminal"), codes.retire("renewed")),
    login: (form, remote) => turn.withPermit(attempt(form, remote)),
    logout,
    cookieName
  } satisfies Login
})
