import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { Cause, Console, Effect, FiberSet, Schema, type Scope } from "effect"
import { formatHostPort, plainAddress } from "../domain/host-port.ts"
import { loginPageHtml } from "./page/login-page.ts"
import { setupCss } from "./page/setup-style.ts"
import { findRoute } from "./route-matching.ts"
import { makeIdleWatch, type IdleWatch, serverIdleMs } from "./security/idle-stop.ts"
import { cookieOf, type Login, makeLogin } from "./security/login.ts"
import { formBodyLimit, jsonBodyLimit, parseJsonBody, readBody } from "./security/request-body.ts"
import { allowedHosts, hostAllowed, originAllowed } from "./security/request-guard.ts"
import { securityHeaders } from "./security/security-headers.ts"
import type { SetupRoute } from "./setup-route.ts"
import { jsonReply, plainReply, refuse, type Refusal, type WireReply, wireReply } from "./wire-reply.ts"
import { closeHttpServer } from "../transport/http-server-close.ts"

export class SetupListenError extends Schema.TaggedError<SetupListenError>()("SetupListenError", {
  message: Schema.String
}) {}

export interface SetupServerOptions {
  readonly port: number
  /** From listenAddresses: 127.0.0.1 always; ::1 and the LAN's may be skipped when the system will not bind them. */
  readonly addresses: ReadonlyArray<string>
  /** The machine's name (os.hostname()): `NAME:PORT` and `NAME.local:PORT` are accepted Host headers. */
  readonly hostname: string
  readonly routes: ReadonlyArray<SetupRoute>
  readonly idleMs?: number
}

interface Served {
  readonly login: Login
  readonly idle: IdleWatch
  readonly routes: ReadonlyArray<SetupRoute>
  readonly allowed: ReadonlySet<string>
}

const isRead = (method: string) => method === "GET" || method === "HEAD"

/** A defect (a bug) answers 500 with no detail: the stack goes to the server's log, never to the browser. */
const failed = (what: string, defect: unknown) =>
  Effect.as(Effect.logError(`${what} failed`, Cause.die(defect)), jsonReply(500, { error: "the setup server failed on this request; its output says why" }))

/** Without a session: the login page at /, a 401 for anything else (the page's script reacts to it by reloading /). */
const loggedOut = (method: string, path: string): WireReply =>
  isRead(method) && path === "/"
    ? { status: 200, type: "text/html; charset=utf-8", body: loginPageHtml() }
    : jsonReply(401, { error: "log in first: open the setup page and type the setup code `scorebridge setup` printed" })

/** A request with a session, to its route: the JSON body read and parsed, a route's defect a 500 that only the log explains. */
const routed = Effect.fnUntraced(function*(routes: ReadonlyArray<SetupRoute>, request: IncomingMessage, url: URL, session: string) {
  const method = request.method ?? "GET"
  const matched = findRoute(routes, method, url.pathname)
  if (matched === undefined) return jsonReply(404, { error: `nothing at ${method} ${url.pathname}` })
  const body = isRead(method) ? undefined : yield* parseJsonBody(yield* readBody(request, jsonBodyLimit), request.headers["content-type"])
  const handled = matched.route.handle({ method, path: url.pathname, params: matched.params, query: url.searchParams, body, session })
  return yield* handled.pipe(
    Effect.map(wireReply),
    Effect.catchDefect((defect) => failed(`${method} ${url.pathname} (${session})`, defect))
  )
})

/** Every request, in the order the walls stand: Host, Origin, login, session, route. */
const answer = Effect.fnUntraced(function*(served: Served, request: IncomingMessage): Effect.fn.Return<WireReply, Refusal> {
  const method = request.method ?? "GET"
  const host = request.headers.host
  if (!hostAllowed(host, served.allowed)) {
    return yield* refuse(plainReply(421, "this setup server answers only at the addresses `scorebridge setup` printed (Host refused)"))
  }
  yield* served.idle.touch
  if (!originAllowed(method, request.headers.origin, host)) return yield* refuse(plainReply(403, "cross-origin request refused"))
  const url = new URL(request.url ?? "/", `http://${host}`)
  const cookie = cookieOf(request.headers.cookie)
  if (method === "POST" && url.pathname === "/login") {
    return yield* served.login.login(yield* readBody(request, formBodyLimit), plainAddress(request.socket.remoteAddress))
  }
  if (method === "POST" && url.pathname === "/logout") return yield* served.login.logout(cookie)
  if (isRead(method) && url.pathname === "/setup.css") return { status: 200, type: "text/css; charset=utf-8", body: setupCss }
  const session = yield* served.login.sessions.find(cookie)
  if (session === undefined) return loggedOut(method, url.pathname)
  return yield* routed(served.routes, request, url, session)
})

const write = (response: ServerResponse, method: string, reply: WireReply) => {
  response.writeHead(reply.status, { ...securityHeaders, "content-type": reply.type, ...reply.headers })
  response.end(method === "HEAD" ? undefined : reply.body)
}

type RunPromise = (effect: Effect.Effect<WireReply>) => Promise<WireReply>

const handler = (run: RunPromise, served: Served) => (request: IncomingMessage, response: ServerResponse) => {
  const answered = answer(served, request).pipe(
    Effect.catch((refusal) => Effect.succeed(refusal.reply)),
    Effect.catchDefect((defect) => failed(`${request.method} ${request.url}`, defect))
  )
  // Rejected only when the server is closing and the request's fiber was interrupted: no answer to give.
  run(answered).then((reply) => write(response, request.method ?? "GET", reply), () => response.destroy())
}

// Loopback's IPv4 must be served; ::1 and a LAN address the system will not bind (IPv6 off, an
// address still being set up) are left out with a word, rather than failing the whole server.
const optional = (address: string, error: NodeJS.ErrnoException) => address !== "127.0.0.1" && error.code === "EADDRNOTAVAIL"

const whyNot = (address: string, port: number, error: NodeJS.ErrnoException) =>
  error.code === "EADDRINUSE"
    ? `port ${port} on ${address} is taken (another scorebridge setup?): stop it, or choose another port with --port`
    : error.code === "EACCES"
    ? `port ${port} on ${address} needs root: run with sudo, or choose a port from 1024 up with --port`
    : `cannot listen on ${formatHostPort({ host: address, port })}: ${error.message}`

/** One listener on `address`, closed with the scope; undefined when the address is optional and cannot be bound. */
const listenOn = (address: string, port: number, handle: ReturnType<typeof handler>) =>
  Effect.acquireRelease(
    Effect.callback<Server | undefined, SetupListenError>((resume) => {
      const server = createServer(handle)
      server.once("error", (error: NodeJS.ErrnoException) => {
        if (optional(address, error)) resume(Effect.succeed(undefined))
        else resume(Effect.fail(new SetupListenError({ message: whyNot(address, port, error) })))
      })
      server.listen(port, address, () => resume(Effect.succeed(server)))
    }),
    (server) => server === undefined ? Effect.void : closeHttpServer(server)
  )

/**
 * The setup server: listens on `options.addresses`, prints each address and the first one-time
 * code, and answers until no request came for `idleMs` (30 min), when it says why and returns.
 * Closing the scope (Ctrl-C, SIGTERM) stops it too. Every request passes the Host, Origin and
 * session walls before any route runs.
 */
export const serveSetup = Effect.fn("serveSetup")(function*(options: SetupServerOptions): Effect.fn.Return<void, SetupListenError, Scope.Scope> {
  const login = yield* makeLogin((code) => Console.log(`setup code: ${code}`))
  const idle = yield* makeIdleWatch(options.idleMs ?? serverIdleMs)
  const allowed = allowedHosts(options.addresses, options.port, options.hostname)
  const run = yield* FiberSet.makeRuntimePromise<never, WireReply, never>()
  const handle = handler(run, { login, idle, routes: options.routes, allowed })
  for (const address of options.addresses) {
    const server = yield* listenOn(address, options.port, handle)
    if (server === undefined) yield* Effect.logWarning(`not listening on ${address}: the system has no such address to bind now`)
    else yield* Console.log(`setup page: http://${formatHostPort({ host: address, port: options.port })}/`)
  }
  yield* login.announceFirstCode
  yield* idle.untilIdle
  yield* Console.log(`setup server stopping: no request for ${Math.round((options.idleMs ?? serverIdleMs) / 60_000)} minutes (run scorebridge setup again for a new code)`)
})
