import { Cause, Context, Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { refusalReply } from "../transport/http-edge/edge-errors.ts"
import { jsonBody } from "../transport/http-edge/json-body.ts"
import { isRead } from "../transport/http-edge/origin-wall.ts"
import { jsonBodyLimit } from "./security/request-body.ts"
import type { SetupRoute } from "./setup-route.ts"
import { jsonReply, toResponse, wireReply } from "./wire-reply.ts"

/** The label of the session a request came with, set by the server's session wall before the router runs. */
export const CurrentSession = Context.Reference<string>("scorebridge/setup/CurrentSession", { defaultValue: () => "" })

/** A defect (a bug) answers 500 with no detail: the cause goes to the server's log, never to the browser. */
export const failedReply = (what: string, cause: Cause.Cause<unknown>) =>
  Effect.as(
    Effect.logError(`${what} failed`, cause),
    toResponse(jsonReply(500, { error: "the setup server failed on this request; its output says why" }))
  )

const paramsOf = (params: Readonly<Record<string, string | undefined>>) =>
  Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined))

const answered = (route: SetupRoute, request: HttpServerRequest.HttpServerRequest, session: string) =>
  Effect.gen(function*() {
    const url = new URL(request.url, "http://setup")
    const body = isRead(request.method) ? undefined : yield* jsonBody(jsonBodyLimit, "setup server")
    const params = paramsOf(yield* HttpRouter.params)
    const reply = yield* route.handle({ method: request.method, path: url.pathname, params, query: url.searchParams, body, session })
    return toResponse(wireReply(reply))
  })

/** One `SetupRoute` as the router calls it: its :params, the query, the JSON body (anything but GET/HEAD) and the session. */
const handlerOf = (route: SetupRoute) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const session = yield* CurrentSession
    const what = `${request.method} ${new URL(request.url, "http://setup").pathname} (${session})`
    return yield* answered(route, request, session).pipe(
      // A body the edge refused (413, 415, 400): the only failures a route has.
      Effect.catch((refusal) => Effect.succeed(refusalReply(refusal))),
      Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : failedReply(what, cause))
    )
  })

/**
 * The setup routes on an effect/http router: each keeps its `SetupRoute` description
 * (setup-route.ts) and is called as before. HEAD is served by the GET route (the router's own rule).
 */
export const mountSetupRoutes = (router: HttpRouter.HttpRouter, routes: ReadonlyArray<SetupRoute>) =>
  router.addAll(routes.map((route) => HttpRouter.route(route.method, route.path as HttpRouter.PathInput, handlerOf(route))))
