import { randomBytes } from "node:crypto"
import { Clock, Effect, Exit, Scope } from "effect"
import { type CapturePlan, type CaptureState, runCapture } from "./button-capture.ts"

/** A capture nobody asked about for this long is closed: its port and broker connection freed. */
export const captureIdleMs = 120_000
const sweepEveryMs = 5_000

interface Capture {
  readonly session: string
  readonly scope: Scope.Closeable
  readonly state: CaptureState
  lastUsed: number
}

/**
 * The captures of the setup server, one per browser session (a new one replaces it: a serial
 * port has one reader). Each runs in a scope of its own under the server's, so ending one frees
 * its links at once and the server's end frees them all.
 */
export const makeCaptureTable = Effect.gen(function*() {
  const serverScope = yield* Effect.scope
  const captures = new Map<string, Capture>()

  const close = (id: string) =>
    Effect.suspend(() => {
      const capture = captures.get(id)
      captures.delete(id)
      return capture === undefined ? Effect.void : Scope.close(capture.scope, Exit.void)
    })

  const sweep = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const idle = [...captures].filter(([, capture]) => now - capture.lastUsed > captureIdleMs).map(([id]) => id)
    yield* Effect.forEach(idle, close, { discard: true })
  })
  yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(sweepEveryMs), sweep)))

  const start = Effect.fnUntraced(function*(session: string, plan: CapturePlan) {
    const previous = [...captures].filter(([, capture]) => capture.session === session).map(([id]) => id)
    yield* Effect.forEach(previous, close, { discard: true })
    const scope = yield* Scope.fork(serverScope)
    const id = randomBytes(12).toString("base64url")
    const state: CaptureState = { pressed: undefined, links: new Map(), unusable: undefined }
    captures.set(id, { session, scope, state, lastUsed: yield* Clock.currentTimeMillis })
    yield* Effect.forkIn(
      runCapture(plan, state).pipe(Effect.catchCause((cause) => Effect.logError("button capture stopped", cause))),
      scope
    )
    return id
  })

  /** The capture's state for its own session, marked as used; another session's id is not found. */
  const look = Effect.fnUntraced(function*(session: string, id: string) {
    const capture = captures.get(id)
    if (capture === undefined || capture.session !== session) return undefined
    capture.lastUsed = yield* Clock.currentTimeMillis
    return capture.state
  })

  const stop = (session: string, id: string) =>
    Effect.suspend(() => captures.get(id)?.session === session ? Effect.as(close(id), true) : Effect.succeed(false))

  return { start, look, stop }
})

export type CaptureTable = Effect.Success<typeof makeCaptureTable>
