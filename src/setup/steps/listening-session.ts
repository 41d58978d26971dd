import { Effect, Exit, Scope } from "effect"
import type { LearnReport } from "../../commissioning/layout-report.ts"
import { learnReport } from "../../commissioning/layout-report.ts"
import { clockTime } from "../../commissioning/layout-learn.ts"
import { describeNoted, type Noted } from "../../commissioning/layout-observation.ts"
import { type ConsoleSource, openSource } from "../../commissioning/source.ts"
import type { LinkKind } from "../../config/scoreboard-link.ts"
import { formatHostPort } from "../../domain/host-port.ts"
import type { ListenRequest } from "./listen-request.ts"
import { ListenState } from "./listen-state.ts"

/** One listening step of one browser session: its link, open until it is replaced, deleted, left unasked or the server stops. */
export interface ListeningSession {
  readonly id: string
  /** The browser session that opened it: only it may read, note or close it. */
  readonly owner: string
  readonly request: ListenRequest
  readonly state: ListenState
  readonly scope: Scope.Closeable
  /** When the page last asked (ms): a session nobody asks about is closed. */
  lastAskedAt: number
}

const linkOf = (source: ConsoleSource): { readonly kind: LinkKind; readonly target: string } => {
  switch (source._tag) {
    case "serial":
      return { kind: "serial", target: source.path }
    case "tcp-listen":
      return { kind: "tcp", target: `listen ${formatHostPort(source.endpoint)}` }
    case "tcp-connect":
      return { kind: "tcp", target: formatHostPort(source.endpoint) }
    case "udp-listen":
      return { kind: "udp", target: `listen ${formatHostPort(source.endpoint)}` }
  }
}

/**
 * Opens the link with the commissioning tools' `openSource` in a scope of its own under `parent`,
 * and decodes what arrives with the console's decoder. Fails with the reason the link would not open.
 */
export const openListening = (id: string, owner: string, request: ListenRequest, parent: Scope.Scope) =>
  Effect.gen(function*() {
    const { definition, sport, options, source } = request
    const decoder = definition.makeDecoder({ ...options, sport })
    const { kind, target } = linkOf(source)
    const openedAt = Date.now()
    const state = new ListenState(decoder, kind, target, openedAt)
    const endpoint = source._tag === "serial" ? source.path : formatHostPort(source.endpoint)
    state.linkState({ _tag: "connecting", target: endpoint }, openedAt)
    const scope = yield* Scope.fork(parent)
    const session = yield* openSource(source, state.onChunk).pipe(
      Scope.provide(scope),
      Effect.onError(() => Scope.close(scope, Exit.void))
    )
    // A listener waits for its console: DISCONNECTED until it connects or sends, as on the status page.
    state.linkState({ _tag: session.waiting === undefined ? "connected" : "listening", target: endpoint }, Date.now())
    yield* Effect.forkIn(Effect.flatMap(session.arrived, () => Effect.sync(() => state.linkState({ _tag: "connected", target: endpoint }, Date.now()))), scope)
    yield* Effect.forkIn(
      Effect.flatMap(session.lost, (reason) => Effect.sync(() => state.linkState({ _tag: "disconnected", target: endpoint, reason, retryInMs: 0 }, Date.now()))),
      scope
    )
    return { id, owner, request, state, scope, lastAskedAt: openedAt } satisfies ListeningSession
  })

/** A moment noted now: what the board showed, stamped at the request, as the layout finder reads it. */
export const noteMoment = (session: ListeningSession, noted: Noted, at: number) => {
  session.state.moments.push({ at, when: clockTime(at), noted })
  return session.state.moments.map((m) => ({ at: m.at, when: m.when, noted: m.noted, text: describeNoted(m.noted) }))
}

/** The layout finder's report on the recording and the moments noted, as `scorebridge learn` prints it. */
export const layoutOf = (session: ListeningSession): LearnReport =>
  learnReport(
    {
      protocol: session.request.definition.name,
      describeTime: clockTime,
      forSupport: "none kept by the page: record one with scorebridge capture, then learn --capture FILE"
    },
    session.state.chunks,
    session.state.moments
  )
