import { Effect, Result, Schema } from "effect"
import { parseNoted } from "../../commissioning/layout-observation.ts"
import { formatHostPort } from "../../domain/host-port.ts"
import { ok, problem, type SetupReply, type SetupRequest, type SetupRoute } from "../setup-route.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { configIfValid } from "./current-config.ts"
import { listenUser, serialUser } from "./link-users.ts"
import { deviceDirectories } from "./page-devices.ts"
import { type ListenBody, type ListenRequest, listenRequest } from "./listen-request.ts"
import type { LearnReport } from "../../commissioning/layout-report.ts"
import type { ListeningSession } from "./listening-session.ts"
import { layoutOf, noteMoment } from "./listening-session.ts"
import type { ListeningSessions } from "./listening-sessions.ts"

export type { ListenBody }
/** `POST /api/listen`'s answer: the session to poll. */
export interface ListenOpened { readonly id: string }
/** A 409 of `POST /api/listen`: `place` when the running daemon reads that link for one of the config's courts. */
export interface ListenHeld { readonly error: string; readonly place?: string }
/** `GET /api/listen/:id`'s answer: the light and the reading. */
export type ListenView = ReturnType<ListeningSession["state"]["view"]>
/** `POST /api/listen/:id/moments`'s answer: the moments noted so far. */
export interface MomentsAnswer { readonly moments: ReturnType<typeof noteMoment> }
/** `POST /api/listen/:id/layout`'s answer. */
export interface LayoutAnswer {
  readonly outcome: LearnReport["outcome"]
  readonly options?: LearnReport["options"]
  readonly lines: LearnReport["lines"]
}

const gone = problem(404, "no such listening session: it was closed (replaced, deleted, or unasked for 2 minutes): start listening again")

/** Who holds the link the session could not open: the daemon for a place of the config, or another browser's listening step. */
const holder = (environment: SetupEnvironment, sessions: ListeningSessions, owner: string, request: ListenRequest) =>
  Effect.gen(function*() {
    if (sessions.otherOn(owner, request) !== undefined) return { words: "another browser's listening step" }
    const config = yield* configIfValid(environment)
    if (config === undefined) return undefined
    const { source } = request
    const user = source._tag === "serial"
      ? serialUser(config, source.path)
      : source._tag === "tcp-connect"
      ? undefined
      : listenUser(config, source._tag === "tcp-listen" ? "tcp" : "udp", formatHostPort(source.endpoint))
    // `place`: the page shows that court's light and reading from the daemon instead.
    return user === undefined ? undefined : { words: `the running daemon (${user.label})`, place: user.place }
  })

const openRoute = (environment: SetupEnvironment, sessions: ListeningSessions): SetupRoute => ({
  method: "POST",
  path: "/api/listen",
  handle: (request) =>
    Effect.gen(function*() {
      const checked = yield* Effect.result(listenRequest(request.body, { lan: environment.lan, directories: deviceDirectories() }))
      if (Result.isFailure(checked)) return problem(400, checked.failure)
      const opened = yield* Effect.result(sessions.open(request.session, checked.success))
      if (Result.isSuccess(opened)) return ok({ id: opened.success.id } satisfies ListenOpened)
      const by = yield* holder(environment, sessions, request.session, checked.success)
      return by === undefined
        ? problem(400, opened.failure.message)
        : { status: 409, json: { error: `in use by ${by.words}: ${opened.failure.message}`, ...(by.place === undefined ? {} : { place: by.place }) } satisfies ListenHeld }
    })
})

/** The owner's session named in the path, or 404. */
const withSession = (sessions: ListeningSessions, request: SetupRequest, then: (session: ListeningSession) => Effect.Effect<SetupReply>) =>
  Effect.suspend(() => {
    const session = sessions.find(request.session, request.params["id"] ?? "")
    return session === undefined ? Effect.succeed(gone) : then(session)
  })

const Moment = Schema.Struct({ noted: Schema.String })

const sessionRoutes = (sessions: ListeningSessions): ReadonlyArray<SetupRoute> => [
  {
    method: "GET",
    path: "/api/listen/:id",
    handle: (request) => withSession(sessions, request, (session) => Effect.sync(() => ok(session.state.view(Date.now()) satisfies ListenView)))
  },
  {
    method: "DELETE",
    path: "/api/listen/:id",
    handle: (request) => withSession(sessions, request, (session) => Effect.as(sessions.close(session), ok({ closed: true })))
  },
  {
    method: "POST",
    path: "/api/listen/:id/moments",
    handle: (request) =>
      withSession(sessions, request, (session) =>
        Effect.sync(() => {
          // Stamped first: the moment is when the technician read the board, not when the note was parsed.
          const at = Date.now()
          const body = Schema.decodeUnknownResult(Moment)(request.body)
          if (Result.isFailure(body)) return problem(400, "expected { noted: \"home 3 guest 5 period 2 clock 7:56\" }")
          const noted = parseNoted(body.success.noted)
          if ("problem" in noted) return problem(400, noted.problem)
          return ok({ moments: noteMoment(session, noted, at) } satisfies MomentsAnswer)
        }))
  },
  {
    method: "POST",
    path: "/api/listen/:id/layout",
    handle: (request) =>
      withSession(sessions, request, (session) =>
        Effect.sync(() => {
          if (session.request.definition.learn === undefined) {
            return problem(400, `${session.request.definition.name} has no fields at fixed places to find: its options are set by hand`)
          }
          if (session.state.moments.length === 0) return problem(400, "no moment noted yet: note what the board shows at two or three moments first")
          const report = layoutOf(session)
          return ok({ outcome: report.outcome, ...(report.options === undefined ? {} : { options: report.options }), lines: report.lines } satisfies LayoutAnswer)
        }))
  }
]

export const listenRoutes = (environment: SetupEnvironment, sessions: ListeningSessions): ReadonlyArray<SetupRoute> => [
  openRoute(environment, sessions),
  ...sessionRoutes(sessions)
]
