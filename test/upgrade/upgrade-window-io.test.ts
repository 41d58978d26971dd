import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type RequestListener, type Server } from "node:http"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { askDaemon, statusAddress } from "../../src/upgrade/daemon-status.ts"
import { readDeferredSince, writeDeferredSince } from "../../src/upgrade/deferral-state.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

const dir = tempDir("upgrade-window")
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("the deferral state", () => {
  it.effect("is none without a file, kept as ISO time, and removed once a window is found", () =>
    Effect.gen(function*() {
      const state = join(dir, "round-trip", "package")
      assert.strictEqual(yield* readDeferredSince(state), null)
      const since = Date.parse("2026-05-02T14:00:00.250Z")
      yield* writeDeferredSince(state, since)
      assert.deepStrictEqual(JSON.parse(readFileSync(join(state, "upgrade-window.json"), "utf8")), { deferredSince: "2026-05-02T14:00:00.250Z" })
      assert.strictEqual(yield* readDeferredSince(state), since)
      yield* writeDeferredSince(state, null)
      assert.strictEqual(yield* readDeferredSince(state), null)
      yield* writeDeferredSince(state, null)
    }))

  it.effect("a file that is not the state is an error naming it (the command then starts a new run)", () =>
    Effect.gen(function*() {
      const state = join(dir, "garbage")
      yield* writeDeferredSince(state, 0)
      writeFileSync(join(state, "upgrade-window.json"), "{\"deferredSince\": \"yesterday-ish\"")
      const error = yield* Effect.flip(readDeferredSince(state))
      assert.strictEqual(error.message, `${join(state, "upgrade-window.json")} is not an upgrade-window state: starting the deferral anew`)
    }))

  it.effect("a state directory that cannot be made is an error naming the file, not a crash", () =>
    Effect.gen(function*() {
      // A file in the way: mkdir fails for root too.
      const blocker = join(dir, "not-a-directory")
      writeFileSync(blocker, "")
      const error = yield* Effect.flip(writeDeferredSince(blocker, 1))
      assert.include(error.message, `cannot write ${join(blocker, "upgrade-window.json")}: `)
    }))
})

const serve = (handler: RequestListener) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ server: Server; listen: string }>((resolve) => {
        const server = createServer(handler)
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resolve({ server, listen: `0.0.0.0:${typeof address === "object" && address !== null ? address.port : 0}` })
        })
      })),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }))
  )

const json = (body: unknown): RequestListener => (_req, res) => {
  res.writeHead(200, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

describe("asking the running bridge", () => {
  it("reaches a wildcard listen address on loopback", () => {
    assert.strictEqual(statusAddress("0.0.0.0:8370"), "127.0.0.1:8370")
    assert.strictEqual(statusAddress("[::]:8370"), "[::1]:8370")
    assert.strictEqual(statusAddress("192.168.1.20:8370"), "192.168.1.20:8370")
  })

  it.live("reads each court's live event and waiting clicks from /status.json", () =>
    Effect.gen(function*() {
      const { listen } = yield* serve(json({
        generatedAt: 1,
        places: [
          { key: "court-1", event: { key: "EVT-1", homeTeam: null }, queue: { score: 4, click: 0, undo: 0 } },
          { key: "court-2", event: { key: null }, queue: { score: 0, click: 2, undo: 1 } },
          { key: "court-3", event: null, queue: { score: 0, click: 0, undo: 0 } }
        ]
      }))
      assert.deepStrictEqual(yield* askDaemon(listen), {
        _tag: "Answered",
        places: [
          { key: "court-1", liveEventKey: "EVT-1", clicksWaiting: 0, undosWaiting: 0 },
          { key: "court-2", liveEventKey: null, clicksWaiting: 2, undosWaiting: 1 },
          { key: "court-3", liveEventKey: null, clicksWaiting: 0, undosWaiting: 0 }
        ]
      })
    }).pipe(Effect.scoped))

  it.live("nothing listening: not running", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      assert.deepStrictEqual(yield* askDaemon(`127.0.0.1:${port}`), { _tag: "NotRunning", at: `127.0.0.1:${port}` })
    }))

  it.live("another program's answer, an error status or silence: not answering, saying which", () =>
    Effect.gen(function*() {
      const other = yield* serve(json({ hello: "world" }))
      assert.deepStrictEqual(yield* askDaemon(other.listen), {
        _tag: "NotAnswering", at: statusAddress(other.listen), detail: "its /status.json is not the bridge's status"
      })
      const failing = yield* serve((_req, res) => {
        res.writeHead(500)
        res.end("status unavailable\n")
      })
      assert.deepInclude(yield* askDaemon(failing.listen), { detail: "HTTP 500 for /status.json" })
      const silent = yield* serve(() => {})
      assert.deepInclude(yield* askDaemon(silent.listen, 200), { _tag: "NotAnswering", detail: "no answer within 200 ms" })
    }).pipe(Effect.scoped))
})
