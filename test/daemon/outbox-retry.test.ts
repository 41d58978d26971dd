import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { awaitOutbox } from "../../src/daemon/outbox-retry.ts"
import { SystemdNotify } from "../../src/daemon/systemd-notify.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/** systemd's side of the seam: the messages the daemon sent, in order. */
const recordingNotify = () => {
  const sent: Array<Readonly<Record<string, string>>> = []
  return { sent, layer: Layer.succeed(SystemdNotify, SystemdNotify.of({ settings: undefined, send: (fields) => Effect.sync(() => void sent.push(fields)) })) }
}

describe("waiting for the state directory", () => {
  it.effect("tries the real outbox again every 5 s, says why at once and every 30 s, feeds the watchdog, and starts once it opens", () =>
    Effect.gen(function*() {
      const stateDirectory = path.join(tempDir("await"), "not-mounted-yet")
      const notify = recordingNotify()
      const waiting = yield* Effect.forkChild(awaitOutbox(stateDirectory).pipe(Effect.provide(notify.layer)))
      yield* Effect.yieldNow
      expect(notify.sent).toEqual([
        { READY: "1", STATUS: expect.stringMatching(/^waiting for the state directory: cannot open outbox .*does not exist/u) },
        { WATCHDOG: "1" }
      ])
      // A try every 5 s: the watchdog each time, the reason again only after 30 s.
      for (let i = 0; i < 6; i++) yield* TestClock.adjust("5 seconds")
      expect(notify.sent.filter((m) => m["WATCHDOG"] === "1")).toHaveLength(7)
      expect(notify.sent.filter((m) => m["READY"] === "1")).toHaveLength(2)
      expect(notify.sent.at(-2)).toMatchObject({ READY: "1" })
      fs.mkdirSync(stateDirectory)
      yield* TestClock.adjust("5 seconds")
      yield* Fiber.join(waiting)
      expect(fs.existsSync(path.join(stateDirectory, "outbox.sqlite"))).toBe(true)
      expect(notify.sent.filter((m) => m["WATCHDOG"] === "1")).toHaveLength(7)
    }))
})
