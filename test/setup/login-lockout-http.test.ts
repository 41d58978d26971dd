import { request } from "node:http"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock, TestConsole } from "effect/testing"
import { freePort } from "../../scripts/support/free-port.ts"
import { serveSetup } from "../../src/setup/setup-server.ts"

/**
 * The finding "anyone keeps the technician out", over real HTTP on loopback: the stranger's
 * requests come from another loopback address (127.0.0.2; Linux routes all of 127/8 to lo), the
 * technician's from 127.0.0.1, and the seconds pass on TestClock.
 */
const live = <A>(promise: () => Promise<A>) => TestClock.withLive(Effect.promise(promise))

const codes = Effect.map(TestConsole.logLines, (lines) => lines.map(String).flatMap((line) => /^setup code: (\S+)$/u.exec(line)?.[1] ?? []))

/** `POST /login` with `code`, sent from the local address `from`, as a browser on the same machine would. */
const postCode = (port: number, from: string, code: string) =>
  live(() =>
    new Promise<number>((resolve, reject) => {
      const host = `127.0.0.1:${port}`
      const headers = { host, origin: `http://${host}`, "content-type": "application/x-www-form-urlencoded" }
      const req = request({ host: "127.0.0.1", port, localAddress: from, method: "POST", path: "/login", headers }, (response) => {
        response.resume()
        response.on("end", () => resolve(response.statusCode ?? 0))
      })
      req.on("error", reject)
      req.end(new URLSearchParams({ code }).toString())
    })
  )

describe("the setup server's login under a stranger's guessing", () => {
  it.effect("a wrong code a second from another address for 90 s: the technician's right code logs in 9 times in 9", () =>
    Effect.gen(function*() {
      const port = yield* live(freePort)
      yield* Effect.forkScoped(Effect.scoped(serveSetup({ port, addresses: ["127.0.0.1"], hostname: "venue-pc", routes: [] })))
      for (let i = 0; i < 500 && (yield* codes).length === 0; i++) yield* TestClock.withLive(Effect.sleep("10 millis"))
      const stranger: Array<number> = []
      const technician: Array<number> = []
      for (let second = 1; second <= 90; second++) {
        stranger.push(yield* postCode(port, "127.0.0.2", "AAAA-AAAA"))
        if (second % 10 === 0) technician.push(yield* postCode(port, "127.0.0.1", (yield* codes).at(-1)!))
        yield* TestClock.adjust(1_000)
      }
      assert.deepStrictEqual(technician, Array.from({ length: 9 }, () => 303))
      // The stranger got its 5 wrong codes a minute, and was refused the rest.
      assert.deepStrictEqual(stranger.slice(0, 6), [401, 401, 401, 401, 401, 429])
      assert.isTrue(stranger.slice(5).every((status) => status === 429))
    }).pipe(Effect.scoped))
})
