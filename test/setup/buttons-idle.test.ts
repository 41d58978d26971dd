import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, Stream } from "effect"
import { TestClock } from "effect/testing"
import { decoderOf } from "../../src/setup/buttons/button-press.ts"
import { captureIdleMs, makeCaptureTable } from "../../src/setup/buttons/capture-table.ts"
import type { StreamSource } from "../../src/setup/buttons/stream-sources.ts"

/** A link that never sends and notes when it is closed, as a port's or a broker's release would. */
const quietLink = (closed: Array<string>): StreamSource => ({
  link: "serial",
  target: "/dev/serial/by-id/usb-quiet",
  entry: { name: "quiet", type: "serial-buttons", serial: { path: "/dev/serial/by-id/usb-quiet" } },
  named: { kind: "serial", path: "/dev/serial/by-id/usb-quiet" },
  open: () => Stream.never.pipe(Stream.ensuring(Effect.sync(() => closed.push("closed")))),
  describe: () => "quiet"
})

const planOf = (source: StreamSource) => {
  const decoder = decoderOf(source.entry)
  if (Result.isFailure(decoder)) throw new Error(decoder.failure.join("; "))
  return { broker: undefined, streams: [{ source, decoder: decoder.success, device: "/dev/ttyUSB0" }], configured: [] }
}

describe("button captures left alone", () => {
  it.effect("a capture asked about within 2 minutes goes on; one nobody asks about for longer is closed and its link freed", () =>
    Effect.gen(function*() {
      const closed: Array<string> = []
      const table = yield* makeCaptureTable
      const id = yield* table.start("browser-1", planOf(quietLink(closed)))
      yield* TestClock.adjust(captureIdleMs - 1_000)
      assert.isDefined(yield* table.look("browser-1", id))
      yield* TestClock.adjust(captureIdleMs - 1_000)
      assert.isDefined(yield* table.look("browser-1", id))
      assert.deepStrictEqual(closed, [])
      yield* TestClock.adjust(captureIdleMs + 10_000)
      assert.isUndefined(yield* table.look("browser-1", id))
      assert.deepStrictEqual(closed, ["closed"])
    }).pipe(Effect.scoped))

  it.effect("the server's end closes every capture", () =>
    Effect.gen(function*() {
      const closed: Array<string> = []
      yield* Effect.scoped(Effect.gen(function*() {
        const table = yield* makeCaptureTable
        yield* table.start("browser-1", planOf(quietLink(closed)))
        yield* table.start("browser-2", planOf(quietLink(closed)))
        yield* TestClock.adjust(1_000)
      }))
      assert.deepStrictEqual(closed, ["closed", "closed"])
    }))
})
