import { Cause, Console, Effect, Option, Schema, type Scope } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { formatHostPort, plainAddress } from "../domain/host-port.ts"
import { isRouteNotFound } from "../transport/http-edge/edge-errors.ts"
import type { EdgeListenError } from "../transport/http-edge/edge-server.ts"
import { serveEdge } from "../transport/http-edge/edge-server.ts"
import { withWalls } from "../transport/http-edge/edge-walls.ts"
import { bodyText } from "../transport/http-edge/json-body.ts"
import { isRead } from "../transport/http-edge/origin-wall.ts"
import { freshCodeTriggers } from "./fresh-code-triggers.ts"
import { loginPageHtml } from "./page/login-page.ts"
import { setupCss } from "./page/setup-style.ts"
import { CurrentSession, failedReply, mountSetupRoutes } from "./route-mount.ts"
import { type IdleWatch, makeIdleWatch, serverIdleMs } from "./security/idle-stop.ts"
import { type Login, makeLogin, sessionCookieValues } from "./security/login.ts"
import { formBodyLimit } from "./security/request-body.ts"
import { allowedHosts } from "./security/request-guard.ts"
import { securityHeaders } from "./security/security-headers.ts"
import type { SetupRoute } from "./setup-route.ts"
import { jsonReply, toResponse, type WireReply } from "./wire-reply.ts"

export class SetupListenError extends Schema.TaggedError<SetupListenError>()("SetupListenError", {
  message: Schema.String
}) {}

/** Where the page's address and each code go: the terminal by default; a file for the CLI when the server runs as a unit. */
export interface SetupAnnounce {
  readonly address: (url: string) => Effect.Effect<void>
  readonly code: (code: string) => Effect.Effect<void>
}

export interface SetupServerOptions {
  readonly port: number
  /** From listenAddresses: 127.0.0.1 always; ::1 and the LAN's may be skipped when the system will not bind them. */
  readonly addresses: ReadonlyArray<string>
  /** The machine's name (os.hostname()): `NAME:PORT` and `NAME.local:PORT` are accepted Host headers. */
  readonly hostname: string
  readonly routes: ReadonlyArray<SetupRoute>
  readonly idleMs?: number
  /** Default: `setup page: URL` and `setup code: CODE` on stdout. */
  readonly announce?: SetupAnnounce
}

const onTerminal: SetupAnnounce = {
  address: (url) => Console.log(`setup page: ${url}`),
  code: (code) => Console.log(`setup code: ${code}`)
}

/**
 * The page's own polling (listen state, captures, the daemon's status) says so with this header:
 * served, but it neither keeps the session alive nor the server from its idle stop. A tab left
 * open on a bench is not use.
 */
export const backgroundHeader = "x-scorebridge-background"

/** Without a session: the login page at /, a 401 for anything else (the page's script reacts to it by reloading /). */
const loggedOut = (method: string, path: string): WireReply =>
  isRead(method) && path === "/"
    ? { status: 200, type: "text/html; charset=utf-8", body: loginPageHtml() }
    : jsonReply(401, { error: "log in first: open the setup page and type the setup code `scorebridge setup` printed" })

const notFound = (method: string, path: string) => toResponse(jsonReply(404, { error: `nothing at ${method} ${path}` }))

type Routed = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest | Scope.Scope>

/**
 * Behind the Host and Origin walls: login, logout and the style for anyone; every other path needs
 * a session, and only then (and not for background polling) is the server in use.
 */
const sessionWall = (login: Login, idle: IdleWatch, routed: Routed) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { method } = request
    const path = new URL(request.url, "http://setup").pathname
    const cookies = sessionCookieValues(request.headers["cookie"], login.cookieName)
    if (method === "POST" && path === "/login") {
      const form = yield* bodyText(formBodyLimit, "setup server")
      const reply = yield* login.login(form, plainAddress(Option.getOrUndefined(request.remoteAddress)))
      if (reply.status === 303) yield* idle.touch
      return toResponse(reply)
    }
    if (method === "POST" && path === "/logout") return toResponse(yield* login.logout(cookies))
    if (isRead(method) && path === "/setup.css") return toResponse({ status: 200, type: "text/css; charset=utf-8", body: setupCss })
    const background = request.headers[backgroundHeader] === "1"
    const session = yield* login.sessions.find(cookies, !background)
    if (session === undefined) return toResponse(loggedOut(method, path))
    if (!background) yield* idle.touch
    return yield* routed.pipe(
      Effect.provideService(CurrentSession, session),
      Effect.catchIf(isRouteNotFound, () => Effect.succeed(notFound(method, path)))
    )
  })

const failed = Effect.fnUntraced(function*(cause: Cause.Cause<unknown>) {
  const request = yield* HttpServerRequest.HttpServerRequest
  return yield* failedReply(`${request.method} ${request.url}`, cause)
})

// Loopback's IPv4 must be served; ::1 and a LAN address the system will not bind (IPv6 off, an
// address still being set up) are left out with a word, rather than failing the whole server.
const optional = (error: EdgeListenError) => error.address !== "127.0.0.1" && error.code === "EADDRNOTAVAIL"

const whyNot = ({ address, port, code, message }: EdgeListenError) =>
  code === "EADDRINUSE"
    ? `port ${port} on ${address} is taken (another scorebridge setup?): stop it, or choose another port with --port`
    : code === "EACCES"
    ? `port ${port} on ${address} needs root: run with sudo, or choose a port from 1024 up with --port`
    : `cannot listen on ${formatHostPort({ host: address, port })}: ${message}`

/** Listens on every address; true for each one served. */
const listenAll = Effect.fnUntraced(function*(options: SetupServerOptions, announce: SetupAnnounce, app: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest | Scope.Scope>) {
  for (const address of options.addresses) {
    const served = yield* serveEdge(address, options.port, app).pipe(
      Effect.as(true),
      Effect.catch((error) => optional(error) ? Effect.succeed(false) : Effect.fail(new SetupListenError({ message: whyNot(error) })))
    )
    if (served) yield* announce.address(`http://${formatHostPort({ host: address, port: options.port })}/`)
    else yield* Effect.logWarning(`not listening on ${address}: the system has no such address to bind now`)
  }
})

/**
 * The setup server: listens on `options.addresses`, prints each address and the first one-time
 * code, and answers until no authenticated request came for `idleMs` (30 min), when it says why
 * and returns. Closing the scope (Ctrl-C, SIGTERM) stops it too. Every request passes the Host,
 * Origin and session walls before any route runs.
 */
export const serveSetup = Effect.fn("serveSetup")(function*(options: SetupServerOptions): Effect.fn.Return<void, SetupListenError, Scope.Scope> {
  const announce = options.announce ?? onTerminal
  const login = yield* makeLogin({ announce: announce.code, port: options.port })
  const idleMs = options.idleMs ?? serverIdleMs
  const idle = yield* makeIdleWatch(idleMs)
  const router = yield* HttpRouter.make
  yield* mountSetupRoutes(router, options.routes)
  const walls = { allowed: allowedHosts(options.addresses, options.port, options.hostname), hostRefusal: "this setup server answers only at the addresses `scorebridge setup` printed (Host refused)", headers: securityHeaders, failed }
  yield* listenAll(options, announce, withWalls(walls)(sessionWall(login, idle, router.asHttpEffect())))
  const hint = yield* freshCodeTriggers(login.freshCode)
  yield* login.announceFirstCode
  yield* Console.log(hint)
  yield* idle.untilIdle
  yield* Console.log(`setup server stopping: no request for ${Math.round(idleMs / 60_000)} minutes (run scorebridge setup again for a new code)`)
})
