/**
 * Appends items to the outbox in <stateDir> as a separate process, printing "<id> <seq>" for each
 * item once `append` has returned (its acknowledgement). Tests SIGKILL it or fill its disk and then
 * check that every printed id survived.
 *
 *   node test/support/outbox-writer.ts <stateDir> [firstSeq=0] [count=100000] [payloadBytes=32] [concurrency=1] [checkpointEvery]
 *
 * With a concurrency over 1, that many appends are in flight at once and share fsyncs (group
 * commit); acks are printed as each returns. `checkpointEvery` makes the outbox checkpoint after that
 * many commits instead of its default.
 *
 * On a failure it prints "error <tag> <message>" and exits with code 2.
 */
import { Effect, Logger } from "effect"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "./whole-outbox.ts"
import { numberedItem } from "./outbox-payloads.ts"

const [stateDirectory, firstArg = "0", countArg = "100000", bytesArg = "32", concurrencyArg = "1", checkpointArg] = process.argv.slice(2)
if (stateDirectory === undefined) {
  process.stderr.write("usage: outbox-writer.ts <stateDir> [firstSeq] [count] [payloadBytes]\n")
  process.exit(64)
}
const first = Number(firstArg)
const count = Number(countArg)
const filler = "x".repeat(Number(bytesArg))
const places = ["court-1", "court-2", "court-3"] as const

const program = Effect.gen(function*() {
  const outbox = yield* wholeOutbox
  const seqs = Array.from({ length: count }, (_, i) => first + i)
  yield* Effect.forEach(seqs, (seq) =>
    Effect.gen(function*() {
      const item = yield* outbox.append({
        place: places[seq % places.length]!,
        ...numberedItem(seq, filler),
        dedupeKey: `writer-${seq}`,
        createdAt: Date.now()
      })
      // stdout to a pipe is synchronous on Linux: once this returns, the ack has left the process.
      process.stdout.write(`${item.id} ${seq}\n`)
    }), { concurrency: Number(concurrencyArg), discard: true })
}).pipe(
  Effect.provide(Outbox.layer({
    stateDirectory,
    ...(checkpointArg === undefined ? {} : { checkpoint: { everyCommits: Number(checkpointArg), whenQuietMs: 2_000 } })
  })),
  // stdout carries only acks: the outbox's own warnings (a slow write on a busy disk) go to stderr.
  Effect.provideService(Logger.LogToStderr, true),
  Effect.catch((error) =>
    Effect.sync(() => {
      process.stdout.write(`error ${error._tag} ${error.message}\n`)
      process.exitCode = 2
    })
  )
)

// A defect rejects here and crashes the process with exit code 1: tests tell that apart from 2.
await Effect.runPromise(program)
