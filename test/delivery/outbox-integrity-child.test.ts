import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { TestClock } from "effect/testing"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { afterEach } from "vitest"
import { Outbox } from "../../src/delivery/outbox.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { useOutbox } from "../support/whole-outbox.ts"
import { scorePayload } from "../support/outbox-payloads.ts"
import { allGone } from "../process/child-support.ts"
import { runWithOutbox, tempStateDirectory } from "./outbox-support.ts"

/**
 * The check of the whole file runs in a child node. Held still here (SIGSTOP, as a hung disk or
 * a stuck lock would hold it), it must not outlive the outbox that started it, nor keep the
 * integrity at "checking" for ever: it is given up after 5 minutes (on the Effect clock).
 */
const stopped: Array<number> = []
afterEach(() => {
  for (const pid of stopped.splice(0)) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // Gone, as it should be.
    }
  }
})

/** Our child node checking `stateDirectory`'s outbox, found in /proc and stopped where it is. */
const holdTheCheck = (stateDirectory: string) =>
  Effect.promise(() =>
    eventually("the check's child", () => {
      for (const entry of readdirSync("/proc")) {
        if (!/^\d+$/u.test(entry) || !existsSync(`/proc/${entry}/stat`)) continue
        try {
          const parent = Number(/\) \S (\d+)/u.exec(readFileSync(`/proc/${entry}/stat`, "utf8"))?.[1])
          const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")
          if (parent !== process.pid || !args.includes("--jitless") || !args.some((arg) => arg.startsWith(stateDirectory))) continue
          process.kill(Number(entry), "SIGSTOP")
          stopped.push(Number(entry))
          return Number(entry)
        } catch {
          // A process that ended while read.
        }
      }
      return undefined
    }, { intervalMs: 2 }))

const withOneItem = async () => {
  const stateDirectory = tempStateDirectory()
  await runWithOutbox(stateDirectory, (outbox) => outbox.append({ place: "court-1", kind: "score", payload: scorePayload(1), createdAt: 1 }))
  return stateDirectory
}

describe("the outbox's check child", () => {
  it.live("is ended when the outbox closes, even one that does not answer SIGTERM", () =>
    Effect.gen(function*() {
      const stateDirectory = yield* Effect.promise(withOneItem)
      const pid = yield* useOutbox(() => holdTheCheck(stateDirectory)).pipe(
        Effect.provide(Outbox.layer({ stateDirectory, integrityCheck: { afterMs: 0 } })),
        Effect.provide(Logger.layer([]))
      )
      yield* Effect.promise(() => allGone("the stopped check", [pid]))
    }))

  it.effect("that never answers is given up after 5 minutes: the file is 'unchecked', saying so, and the child is gone", () =>
    Effect.gen(function*() {
      const stateDirectory = yield* Effect.promise(withOneItem)
      const integrity = yield* useOutbox((outbox) =>
        Effect.gen(function*() {
          const pid = yield* holdTheCheck(stateDirectory)
          yield* TestClock.adjust(5 * 60_000)
          const integrity = yield* Effect.promise(() =>
            eventually("the check given up", () => {
              const now = Effect.runSync(outbox.integrity)
              return now.state === "checking" ? undefined : now
            }))
          yield* Effect.promise(() => allGone("the stopped check", [pid]))
          return integrity
        })
      ).pipe(Effect.provide(Outbox.layer({ stateDirectory, integrityCheck: { afterMs: 0 } })), Effect.provide(Logger.layer([])))
      assert.strictEqual(integrity.state, "unchecked")
      assert.match(integrity.state === "unchecked" ? integrity.reason : "", /did not finish within 300000 ms and was stopped$/u)
    }))
})
