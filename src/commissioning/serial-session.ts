import { Deferred, Effect } from "effect"
import { SerialPort } from "serialport"
import type { ReceivedChunk } from "../domain/received.ts"
import { SerialOpenError, type SerialOptions, watchPath } from "../transport/serial.ts"

export interface SerialSession {
  /** Completes with the reason once the port dies (unplugged adapter, pty peer gone). */
  readonly lost: Effect.Effect<string>
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/**
 * One short-lived serial port for the commissioning tools, at the speed and framing asked (a
 * console at 8E1 read as 8N1 on a real UART is parity and framing errors): no reconnect, since
 * a technician is watching. Each chunk is stamped on arrival and handed to `onChunk`; the port
 * closes with the scope.
 */
export const openSerialSession = (line: SerialOptions, onChunk: (chunk: ReceivedChunk) => void) =>
  Effect.gen(function*() {
    const { path } = line
    const lost = yield* Deferred.make<string>()
    yield* Effect.acquireRelease(
      Effect.callback<SerialPort, SerialOpenError>((resume) => {
        let port: SerialPort
        try {
          port = new SerialPort({ path, baudRate: line.baudRate, dataBits: line.dataBits, parity: line.parity, stopBits: line.stopBits, autoOpen: false })
        } catch (err) {
          resume(Effect.fail(new SerialOpenError({ path, message: describe(err) })))
          return
        }
        port.on("data", (bytes: Buffer) => onChunk({ bytes, receivedAt: Date.now() }))
        const markLost = (reason: string) => Deferred.doneUnsafe(lost, Effect.succeed(reason))
        port.on("close", (err: Error | null) => markLost(err ? `port lost (${err.message})` : "port closed"))
        port.on("error", (err: Error) => markLost(`port error (${err.message})`))
        port.open((err) => resume(err ? Effect.fail(new SerialOpenError({ path, message: describe(err) })) : Effect.succeed(port)))
      }),
      (port) =>
        Effect.callback<void>((resume) => {
          if (!port.isOpen) return resume(Effect.void)
          port.close(() => resume(Effect.void))
        }).pipe(Effect.timeoutOption("2 seconds"), Effect.asVoid)
    )
    // As in the daemon: a pty whose peer vanished, or an adapter replugged behind the same by-id link, is not always reported by serialport.
    yield* Effect.forkScoped(watchPath(path, lost))
    return { lost: Deferred.await(lost) } satisfies SerialSession
  })
