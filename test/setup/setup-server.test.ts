import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { TestClock, TestConsole } from "effect/testing"
import { freePort } from "../../scripts/support/free-port.ts"
import { sessionIdleMs } from "../../src/setup/security/sessions.ts"
import { jsonBodyLimit } from "../../src/setup/security/request-body.ts"
import { ok, problem, type SetupRoute } from "../../src/setup/setup-route.ts"
import { serverIdleMs } from "../../src/setup/security/idle-stop.ts"
import { serveSetup } from "../../src/setup/setup-server.ts"
import { type Ask, ask, cookieFrom } from "./setup-http.ts"

/**
 * The setup server in this process, over real HTTP on loopback, with routes of the test's own
 * (the parts' routes are tested by their authors): what the server does around a route (params,
 * JSON bodies, defects) and its times on TestClock (a session's 15 minutes, the server's 30).
 */
const routes: ReadonlyArray<SetupRoute> = [
  { method: "GET", path: "/api/things/:id/parts/:part", handle: (r) => Effect.succeed(ok({ params: r.params, q: r.query.get("q"), session: r.session })) },
  { method: "POST", path: "/api/echo", handle: (r) => Effect.succeed(ok({ body: r.body ?? null })) },
  { method: "DELETE", path: "/api/things/:id", handle: (r) => Effect.succeed(problem(409, `thing ${r.params["id"]} is busy`)) },
  { method: "GET", path: "/api/boom", handle: () => Effect.die(new Error("a secret detail of the stack")) }
]

const live = <A>(promise: () => Promise<A>) => TestClock.withLive(Effect.promise(promise))

const codes = Effect.map(TestConsole.logLines, (lines) => lines.map(String).flatMap((line) => /^setup code: (\S+)$/u.exec(line)?.[1] ?? []))

/** Starts the server on a free port and waits (bounded) until it has printed its first code. */
const started = Effect.gen(function*() {
  const port = yield* live(freePort)
  const server = yield* Effect.forkScoped(Effect.scoped(serveSetup({ port, addresses: ["127.0.0.1"], hostname: "venue-pc", routes })))
  for (let i = 0; i < 500 && (yield* codes).length === 0; i++) yield* TestClock.withLive(Effect.sleep("10 millis"))
  const call = (request: Ask) => live(() => ask(port, request))
  const logIn = Effect.gen(function*() {
    const code = (yield* codes).at(-1)!
    const answer = yield* call({ method: "POST", path: "/login", form: { code } })
    assert.strictEqual(answer.status, 303)
    return cookieFrom(answer)
  })
  return { port, server, call, logIn }
})

describe("the setup server around its routes", () => {
  it.effect("hands a route its decoded :params, the query and the session's label", () =>
    Effect.gen(function*() {
      const { call, logIn } = yield* started
      const cookie = yield* logIn
      const answer = yield* call({ path: "/api/things/court%201/parts/serial?q=by-id", cookie })
      assert.strictEqual(answer.status, 200)
      assert.deepStrictEqual(JSON.parse(answer.body), { params: { id: "court 1", part: "serial" }, q: "by-id", session: "session 1 from 127.0.0.1" })
      const head = yield* call({ method: "HEAD", path: "/api/things/a/parts/b", cookie })
      assert.strictEqual(head.status, 200)
      assert.strictEqual(head.body, "")
      assert.strictEqual((yield* call({ path: "/api/things/a", cookie })).status, 404)
      const busy = yield* call({ method: "DELETE", path: "/api/things/7", cookie })
      assert.deepStrictEqual([busy.status, JSON.parse(busy.body)], [409, { error: "thing 7 is busy" }])
    }).pipe(Effect.scoped))

  it.effect("parses JSON bodies: bad JSON 400, another type 415, more than 64 kB 413, and none of them reach the route", () =>
    Effect.gen(function*() {
      const { call, logIn } = yield* started
      const cookie = yield* logIn
      const echoed = yield* call({ method: "POST", path: "/api/echo", cookie, json: `{"place":{"key":"court-1"}}` })
      assert.deepStrictEqual(JSON.parse(echoed.body), { body: { place: { key: "court-1" } } })
      const empty = yield* call({ method: "POST", path: "/api/echo", cookie })
      assert.deepStrictEqual(JSON.parse(empty.body), { body: null })
      const bad = yield* call({ method: "POST", path: "/api/echo", cookie, json: `{"place":` })
      assert.deepStrictEqual([bad.status, JSON.parse(bad.body)], [400, { error: "request body is not valid JSON" }])
      const form = yield* call({ method: "POST", path: "/api/echo", cookie, json: `{}`, contentType: "text/plain" })
      assert.strictEqual(form.status, 415)
      const big = yield* call({ method: "POST", path: "/api/echo", cookie, json: JSON.stringify({ pad: "x".repeat(jsonBodyLimit) }) })
      assert.strictEqual(big.status, 413)
    }).pipe(Effect.scoped))

  it.effect("a route's defect is a 500 that names nothing of it; the log has it", () =>
    Effect.gen(function*() {
      const { call, logIn } = yield* started
      const cookie = yield* logIn
      const answer = yield* call({ path: "/api/boom", cookie })
      assert.strictEqual(answer.status, 500)
      assert.notInclude(answer.body, "secret")
      assert.notInclude(answer.body, "Error")
      assert.strictEqual(JSON.parse(answer.body).error, "the setup server failed on this request; its output says why")
      const logged = [...yield* TestConsole.logLines, ...yield* TestConsole.errorLines].map((line) => JSON.stringify(line))
      assert.isTrue(logged.some((line) => line.includes("GET /api/boom (session 1 from 127.0.0.1) failed")))
      assert.isTrue(logged.some((line) => line.includes("a secret detail of the stack")))
      // The server still answers.
      assert.strictEqual((yield* call({ path: "/api/things/a/parts/b", cookie })).status, 200)
    }).pipe(Effect.scoped))

  it.effect("a session ends after 15 minutes without a request; each request starts them again", () =>
    Effect.gen(function*() {
      const { call, logIn } = yield* started
      const cookie = yield* logIn
      const path = "/api/things/a/parts/b"
      yield* TestClock.adjust(sessionIdleMs - 1_000)
      assert.strictEqual((yield* call({ path, cookie })).status, 200)
      yield* TestClock.adjust(sessionIdleMs - 1_000)
      assert.strictEqual((yield* call({ path, cookie })).status, 200)
      yield* TestClock.adjust(sessionIdleMs)
      assert.strictEqual((yield* call({ path, cookie })).status, 401)
    }).pipe(Effect.scoped))

  it.effect("stops by itself after 30 minutes without an authenticated request, and says why", () =>
    Effect.gen(function*() {
      const { call, logIn, server } = yield* started
      const cookie = yield* logIn
      for (let i = 0; i < 2; i++) {
        yield* TestClock.adjust(sessionIdleMs - 60_000)
        assert.strictEqual((yield* call({ path: "/api/things/a/parts/b", cookie })).status, 200)
      }
      yield* TestClock.adjust(serverIdleMs - 60_000)
      assert.isUndefined(server.pollUnsafe())
      yield* TestClock.adjust(60_000)
      yield* Fiber.join(server)
      const lines = (yield* TestConsole.logLines).map(String)
      assert.include(lines, "setup server stopping: no request for 30 minutes (run scorebridge setup again for a new code)")
      // Closed: nothing listens on its port any more.
      assert.isTrue(Exit.isFailure(yield* Effect.exit(call({}))))
    }).pipe(Effect.scoped))

  it.effect("requests without a session (login page, style, 401s, wrong codes, refused Host and Origin) do not keep it from its idle stop", () =>
    Effect.gen(function*() {
      const { call, port, server } = yield* started
      yield* TestClock.adjust(serverIdleMs - 60_000)
      const strangers: ReadonlyArray<[Ask, number]> = [
        [{}, 200],
        [{ path: "/setup.css" }, 200],
        [{ path: "/api/things/a/parts/b" }, 401],
        [{ method: "POST", path: "/login", form: { code: "AAAA-AAAA" } }, 401],
        [{ host: `attacker.example:${port}` }, 421],
        [{ method: "POST", path: "/api/echo", origin: "http://attacker.example", json: "{}" }, 403]
      ]
      for (const [request, status] of strangers) assert.strictEqual((yield* call(request)).status, status)
      yield* TestClock.adjust(60_000)
      yield* Fiber.join(server)
    }).pipe(Effect.scoped))

  it.effect("the page's background polling is served but keeps neither the session nor the server alive", () =>
    Effect.gen(function*() {
      const { call, logIn, server } = yield* started
      const cookie = yield* logIn
      const poll: Ask = { path: "/api/things/a/parts/b", cookie, background: true }
      yield* TestClock.adjust(sessionIdleMs - 60_000)
      assert.strictEqual((yield* call(poll)).status, 200)
      yield* TestClock.adjust(60_000)
      // 15 minutes since the login, the last 14 of them polled: the session has ended.
      assert.strictEqual((yield* call(poll)).status, 401)
      yield* TestClock.adjust(serverIdleMs - sessionIdleMs)
      yield* Fiber.join(server)
    }).pipe(Effect.scoped))
})
