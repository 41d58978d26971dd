import { constants } from "node:fs"
import { type FileHandle, open } from "node:fs/promises"
import { Clock, Effect, Queue, Stream } from "effect"
import type { LinkState, ReceivedChunk } from "../../domain/received.ts"
import { superviseLink } from "../../transport/link-supervisor.ts"

/** 64 records of 24 bytes, as the daemon reads an input device. */
const readBytes = 24 * 64
/** How often an idle device is asked again. The records carry the kernel's times, so a press is timed the same. */
const pollEveryMs = 20

const errnoOf = (cause: unknown): string => (cause as NodeJS.ErrnoException).code ?? String(cause)

const openNonBlocking = (device: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: () => open(device, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY), catch: (cause) => `cannot be opened (${errnoOf(cause)})` }),
    (handle) => Effect.promise(() => handle.close().catch(() => undefined))
  )

/** One read that never waits: the bytes there, none (EAGAIN), or why the device is lost. */
const readOnce = (handle: FileHandle, buffer: Buffer) =>
  Effect.tryPromise({ try: () => handle.read(buffer, 0, buffer.length, null), catch: errnoOf }).pipe(
    Effect.map(({ bytesRead }) => (bytesRead === 0 ? ("end of file" as const) : Buffer.from(buffer.subarray(0, bytesRead)))),
    Effect.catch((code) => (code === "EAGAIN" ? Effect.succeed(undefined) : Effect.succeed(`read error (${code})`)))
  )

const session = (device: string, emit: (chunk: ReceivedChunk) => void) => (connected: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const opened = yield* Effect.result(openNonBlocking(device))
    if (opened._tag === "Failure") return opened.failure
    yield* connected
    const buffer = Buffer.alloc(readBytes)
    for (;;) {
      const got = yield* readOnce(opened.success, buffer)
      if (typeof got === "string") return got
      if (got === undefined) yield* Effect.sleep(pollEveryMs)
      else emit({ bytes: got, receivedAt: yield* Clock.currentTimeMillis })
    }
  })

/**
 * The bytes of an input device for a capture, opened O_NONBLOCK and asked every 20 ms. The
 * daemon's reader (transport/input-device.ts) waits in a blocking read, which holds one of libuv's
 * four threads per device: captures from several browsers would fill the pool, and every file
 * read of the server (the config, a save) would wait behind them. Lost devices are opened again
 * on the daemon's schedule; interruption closes the file.
 */
export const nonBlockingInputChunks = (device: string, onState: (state: LinkState) => void): Stream.Stream<ReceivedChunk> =>
  Stream.callback<ReceivedChunk>((queue) =>
    superviseLink({ target: device, noun: "input device", onState, session: session(device, (chunk) => Queue.offerUnsafe(queue, chunk)) })
  )
