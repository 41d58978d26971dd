import { Writable } from "node:stream"
import { Effect } from "effect"
import { expect, it } from "vitest"
import { pinoLoggerLayer } from "../../src/observability/logger.ts"

/** Runs `program` with the daemon's logger and returns the JSON lines it wrote. */
const linesOf = async (level: Parameters<typeof pinoLoggerLayer>[0], program: Effect.Effect<void>) => {
  const lines: Array<Record<string, unknown>> = []
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line !== "") lines.push(JSON.parse(line))
      done()
    }
  })
  await Effect.runPromise(program.pipe(Effect.provide(pinoLoggerLayer(level, destination))))
  return lines
}

it("writes each Effect severity at pino's matching level, so `level >= 40` finds every warning", async () => {
  const lines = await linesOf("trace", Effect.gen(function*() {
    yield* Effect.logTrace("t")
    yield* Effect.logDebug("d")
    yield* Effect.logInfo("i")
    yield* Effect.logWarning("the disk is slow")
    yield* Effect.logError("e")
    yield* Effect.logFatal("f")
  }))
  expect(lines.map((line) => [line["msg"], line["level"]])).toEqual([
    ["t", 10], ["d", 20], ["i", 30], ["the disk is slow", 40], ["e", 50], ["f", 60]
  ])
})

it("drops what is below the configured level", async () => {
  const lines = await linesOf("warn", Effect.gen(function*() {
    yield* Effect.logInfo("routine")
    yield* Effect.logWarning("worth a look")
  }))
  expect(lines.map((line) => line["msg"])).toEqual(["worth a look"])
})
