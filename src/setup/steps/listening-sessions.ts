import { randomBytes } from "node:crypto"
import { Effect, Exit, Schedule, Scope, Semaphore } from "effect"
import type { CommissioningFailure } from "../../commissioning/commissioning-failure.ts"
import type { ListenRequest } from "./listen-request.ts"
import { type ListeningSession, openListening } from "./listening-session.ts"

/** How long a listening session stays open without the page asking: the technician walked away, the tab was closed. */
export const defaultListenIdleMs = 120_000

export interface ListeningSessions {
  /** Opens a session for `owner`, closing the one it had first (one per browser session; the new one may need the same port). */
  readonly open: (owner: string, request: ListenRequest) => Effect.Effect<ListeningSession, CommissioningFailure>
  /** The owner's session by id, marked as asked about; undefined for another's or a closed one. */
  readonly find: (owner: string, id: string) => ListeningSession | undefined
  /** Another browser session's session on the same link, for the answer when the port is taken. */
  readonly otherOn: (owner: string, request: ListenRequest) => ListeningSession | undefined
  readonly close: (session: ListeningSession) => Effect.Effect<void>
}

/** Two links that cannot both be open: one serial line, or one local port (a connect holds none). */
const sameLink = (a: ListenRequest["source"], b: ListenRequest["source"]): boolean => {
  if (a._tag === "serial" || b._tag === "serial") return a._tag === "serial" && b._tag === "serial" && a.path === b.path
  if (a._tag === "tcp-connect" || b._tag === "tcp-connect") return false
  return a._tag === b._tag && a.endpoint.port === b.endpoint.port
}

/**
 * The listening sessions of the setup server. Each lives in a scope under the server's, so they all
 * close when it stops; one nobody asked about for `idleMs` is closed by a sweep.
 */
export const makeListeningSessions = (idleMs = defaultListenIdleMs) =>
  Effect.gen(function*() {
    const parent = yield* Effect.scope
    const sessions = new Map<string, ListeningSession>()
    const turn = yield* Semaphore.make(1)

    const close = (session: ListeningSession) =>
      Effect.suspend(() => {
        if (sessions.get(session.id) !== session) return Effect.void
        sessions.delete(session.id)
        return Scope.close(session.scope, Exit.void)
      })

    const open = (owner: string, request: ListenRequest) =>
      turn.withPermits(1)(Effect.gen(function*() {
        for (const session of [...sessions.values()]) if (session.owner === owner) yield* close(session)
        const session = yield* openListening(randomBytes(12).toString("base64url"), owner, request, parent)
        sessions.set(session.id, session)
        return session
      }))

    const find = (owner: string, id: string) => {
      const session = sessions.get(id)
      if (session === undefined || session.owner !== owner) return undefined
      session.lastAskedAt = Date.now()
      return session
    }

    const otherOn = (owner: string, request: ListenRequest) =>
      [...sessions.values()].find((s) => s.owner !== owner && sameLink(s.request.source, request.source))

    const sweep = Effect.suspend(() => {
      const now = Date.now()
      const idle = [...sessions.values()].filter((s) => now - s.lastAskedAt > idleMs)
      return Effect.forEach(idle, close, { discard: true })
    })
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(Math.max(50, Math.min(10_000, idleMs / 4)))))
    return { open, find, otherOn, close } satisfies ListeningSessions
  })
