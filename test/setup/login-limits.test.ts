import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { retireGapMs, wrongCodesOverall, wrongCodesPerAddress } from "../../src/setup/security/login-limiter.ts"
import { makeLogin, sessionCookieValues } from "../../src/setup/security/login.ts"
import { codeLifetimeMs } from "../../src/setup/security/one-time-code.ts"
import type { WireReply } from "../../src/setup/wire-reply.ts"

/**
 * The login on its own, as the setup server calls it, its times on TestClock: who may try a code,
 * when a code stops working, and what the technician is told then.
 */
const technician = "192.168.1.20"

const started = Effect.gen(function*() {
  const printed: Array<string> = []
  const login = yield* makeLogin({ announce: (code) => Effect.sync(() => void printed.push(code)), port: 8444 })
  yield* login.announceFirstCode
  const newest = () => printed.at(-1)!
  const tryCode = (code: string, remote: string) => login.login(new URLSearchParams({ code }).toString(), remote)
  return { login, printed, newest, tryCode }
})

const cookieOf = (reply: WireReply) => reply.headers?.["set-cookie"]?.split(";")[0] ?? ""

describe("who may try a setup code", () => {
  it.effect("an address with 5 wrong codes in a minute waits (429, Retry-After), the right code too; each try meanwhile lengthens its wait", () =>
    Effect.gen(function*() {
      const { newest, tryCode } = yield* started
      for (let i = 0; i < wrongCodesPerAddress; i++) assert.strictEqual((yield* tryCode("AAAA-AAAA", technician)).status, 401)
      const refused = yield* tryCode(newest(), technician)
      assert.strictEqual(refused.status, 429)
      assert.strictEqual(refused.headers?.["retry-after"], "60")
      assert.include(refused.body, "Too many wrong codes from this device")
      // Tried once a second meanwhile: still refused when the first wait would have been over.
      let last = refused
      for (let second = 1; second <= 60; second++) {
        yield* TestClock.adjust(1_000)
        last = yield* tryCode(newest(), technician)
        assert.strictEqual(last.status, 429, `at ${second} s`)
      }
      const wait = Number(last.headers?.["retry-after"])
      assert.strictEqual(wait, 56)
      // Waited as told, it gets in.
      yield* TestClock.adjust(wait * 1_000)
      assert.strictEqual((yield* tryCode(newest(), technician)).status, 303)
    }).pipe(Effect.scoped))

  it.effect("a stranger's wrong code every second for 90 s from other addresses never refuses the technician's right code", () =>
    Effect.gen(function*() {
      const { newest, tryCode } = yield* started
      let loggedIn = 0
      for (let second = 0; second < 90; second++) {
        const stranger = yield* tryCode("AAAA-AAAA", `192.168.1.${100 + (second % 3)}`)
        assert.include([401, 429], stranger.status)
        if (second % 10 === 9) {
          const right = yield* tryCode(newest(), technician)
          assert.strictEqual(right.status, 303, `the technician at ${second} s`)
          loggedIn += 1
        }
        yield* TestClock.adjust(1_000)
      }
      assert.strictEqual(loggedIn, 9)
    }).pipe(Effect.scoped))

  it.effect("20 wrong codes from many addresses together retire the code: a fresh one is printed, the old one refused in words", () =>
    Effect.gen(function*() {
      const { newest, printed, tryCode } = yield* started
      const first = newest()
      for (let i = 0; i < wrongCodesOverall - 1; i++) assert.strictEqual((yield* tryCode("AAAA-AAAA", `10.0.${i}.1`)).status, 401)
      assert.deepStrictEqual(printed, [first])
      assert.strictEqual((yield* tryCode("AAAA-AAAA", "10.0.99.1")).status, 401)
      assert.strictEqual(printed.length, 2)
      const old = yield* tryCode(first, technician)
      assert.strictEqual(old.status, 401)
      assert.include(old.body, "That code was replaced because too many wrong codes came from other clients")
      assert.include(old.body, "the last line &#39;setup code: …&#39;")
      assert.strictEqual((yield* tryCode(newest(), technician)).status, 303)
    }).pipe(Effect.scoped))

  it.effect("guessing retires a code at most once a minute, so the technician has time to type the one just printed", () =>
    Effect.gen(function*() {
      const { newest, printed, tryCode } = yield* started
      for (let i = 0; i < 3 * wrongCodesOverall; i++) yield* tryCode("AAAA-AAAA", `10.1.${i}.1`)
      assert.strictEqual(printed.length, 2)
      yield* TestClock.adjust(retireGapMs - 1)
      const typed = newest()
      yield* tryCode("AAAA-AAAA", "10.2.0.1")
      assert.strictEqual((yield* tryCode(typed, technician)).status, 303)
      // The next wrong code after the minute retires the code again: more than 20 came meanwhile.
      yield* TestClock.adjust(1)
      yield* tryCode("AAAA-AAAA", "10.2.0.2")
      assert.strictEqual(printed.length, 4)
    }).pipe(Effect.scoped))
})

describe("how long a setup code lives", () => {
  it.effect("a code expires 10 minutes after it was printed: a fresh one is printed, the old one refused as expired", () =>
    Effect.gen(function*() {
      const { newest, printed, tryCode } = yield* started
      const first = newest()
      yield* TestClock.adjust(codeLifetimeMs - 1)
      assert.deepStrictEqual(printed, [first])
      yield* TestClock.adjust(1)
      assert.strictEqual(printed.length, 2)
      const old = yield* tryCode(first, technician)
      assert.strictEqual(old.status, 401)
      assert.include(old.body, "That code expired: codes last 10 minutes")
      // The fresh one lives 10 minutes of its own.
      yield* TestClock.adjust(codeLifetimeMs - 1)
      assert.strictEqual((yield* tryCode(newest(), technician)).status, 303)
      yield* TestClock.adjust(codeLifetimeMs)
      assert.strictEqual(printed.length, 4)
    }).pipe(Effect.scoped))

  it.effect("freshCode retires the code on the terminal's word and prints another", () =>
    Effect.gen(function*() {
      const { login, newest, printed, tryCode } = yield* started
      const first = newest()
      yield* login.freshCode
      assert.strictEqual(printed.length, 2)
      assert.include((yield* tryCode(first, technician)).body, "That code was replaced by a fresh one on the setup server&#39;s terminal")
      assert.strictEqual((yield* tryCode(newest(), technician)).status, 303)
    }).pipe(Effect.scoped))
})

describe("sessions and their cookie", () => {
  it.effect("a session ends 4 hours after its login, however busy it was", () =>
    Effect.gen(function*() {
      const { login, newest, tryCode } = yield* started
      const cookies = [cookieOf(yield* tryCode(newest(), technician)).split("=")[1]!]
      for (let minute = 10; minute < 240; minute += 10) {
        yield* TestClock.adjust(10 * 60_000)
        assert.strictEqual(yield* login.sessions.find(cookies, true), `session 1 from ${technician}`, `after ${minute} minutes`)
      }
      yield* TestClock.adjust(10 * 60_000)
      assert.isUndefined(yield* login.sessions.find(cookies, true))
    }).pipe(Effect.scoped))

  it.effect("the page's background requests do not keep a session alive: 15 minutes after the last use it has ended", () =>
    Effect.gen(function*() {
      const { login, newest, tryCode } = yield* started
      const cookies = [cookieOf(yield* tryCode(newest(), technician)).split("=")[1]!]
      for (let minute = 1; minute < 15; minute++) {
        yield* TestClock.adjust(60_000)
        assert.isDefined(yield* login.sessions.find(cookies, false))
      }
      yield* TestClock.adjust(60_000)
      assert.isUndefined(yield* login.sessions.find(cookies, false))
    }).pipe(Effect.scoped))

  it.effect("the cookie's name carries the port; a same-name cookie sent before the real one does not shadow it", () =>
    Effect.gen(function*() {
      const { login, newest, tryCode } = yield* started
      const setCookie = (yield* tryCode(newest(), technician)).headers?.["set-cookie"] ?? ""
      assert.match(setCookie, /^scorebridge_setup_8444=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/u)
      assert.strictEqual(login.cookieName, "scorebridge_setup_8444")
      const real = cookieOf({ status: 303, type: "", body: "", headers: { "set-cookie": setCookie } })
      // Another page on 127.0.0.1 (another port) set the same name; the browser sends both, that one first.
      const header = `scorebridge_setup_8445=x; scorebridge_setup_8444=${"A".repeat(43)}; theme=dark; ${real}`
      const values = sessionCookieValues(header, login.cookieName)
      assert.deepStrictEqual(values, ["A".repeat(43), real.split("=")[1]!])
      assert.strictEqual(yield* login.sessions.find(values, true), `session 1 from ${technician}`)
      const out = yield* login.logout(values)
      assert.match(out.headers?.["set-cookie"] ?? "", /^scorebridge_setup_8444=; .*Max-Age=0/u)
      assert.isUndefined(yield* login.sessions.find(values, true))
    }).pipe(Effect.scoped))
})
