import type { IncomingMessage, ServerResponse } from "node:http"
import type { PublicContext } from "./context.ts"
import { badField, HttpFailure } from "./failure.ts"
import type { Fault, FaultBook } from "./faults.ts"
import type { RateLimiter } from "./rate-limit.ts"
import type { Recorder } from "./recorder.ts"
import { bodyValue, readBody, type RequestBody } from "./request-body.ts"
import { compile, type CompiledRoute, match, type Reply } from "./router.ts"
import { controlRoutes, type ControlContext } from "./routes-control.ts"
import { eventRoutes } from "./routes-events.ts"
import { lookupRoutes } from "./routes-lookup.ts"
import { momentRoutes } from "./routes-moments.ts"
import { overlayRoutes } from "./routes-overlay.ts"
import { placeRoutes } from "./routes-places.ts"
import type { Organization, Store } from "./store.ts"

export interface SimulatorParts {
  readonly store: Store
  readonly faults: FaultBook
  readonly recorder: Recorder
  readonly limiter: RateLimiter
  readonly clipDelayMs: number
  /** Each further camera's clip of a moment appears this much after the previous one. */
  readonly clipSpreadMs: number
  /** Base of the fake media URLs; known once the server listens. */
  mediaBase: string
  /** Runs `fn` after `ms` unless the simulator closes first, so no timer outlives it. */
  later(ms: number, fn: () => void): void
}

const publicRoutes = compile<PublicContext>([...placeRoutes, ...lookupRoutes, ...eventRoutes, ...momentRoutes, ...overlayRoutes])
const controls = compile<ControlContext>(controlRoutes)

/** A hung request is dropped after this, so a forgotten "hang" fault leaks nothing. */
const hangLimitMs = 60_000

const send = (res: ServerResponse, reply: Reply, headers: Record<string, string> = {}): void => {
  res.writeHead(reply.status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(reply.body))
}

const replyOf = (run: () => Reply): Reply => {
  try {
    return run()
  } catch (error) {
    if (error instanceof HttpFailure) return { status: error.status, body: error.body }
    if (error instanceof URIError) return { status: 400, body: { errors: [{ field: "path", message: "malformed percent-encoding" }] } }
    throw error
  }
}

const bearer = (req: IncomingMessage): string | undefined => /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1]

const routed = <Ctx>(routes: ReadonlyArray<CompiledRoute<Ctx>>, method: string, path: string, ctx: Ctx): Reply => {
  const found = match(routes, method, path)
  if (found === undefined) return { status: 404, body: { error: `no such endpoint: ${method} ${path}` } }
  return found.route.handle(ctx, found.params)
}

const malformed = badField("body", "malformed JSON")

function answerControl(parts: SimulatorParts, req: IncomingMessage, url: URL, body: RequestBody): Reply {
  if (body.kind === "malformed") return { status: 400, body: malformed.body }
  const now = Date.now()
  parts.store.advance(now)
  const ctx: ControlContext = { ...parts, now, query: url.searchParams, body: bodyValue(body), view: { now, mediaBase: parts.mediaBase } }
  return replyOf(() => routed(controls, req.method ?? "GET", url.pathname, ctx))
}

/** Auth, then the rate limit (401s spend nothing), then the endpoint. */
function answerPublic(parts: SimulatorParts, req: IncomingMessage, url: URL, body: RequestBody, org: Organization | undefined): Reply {
  const token = bearer(req)
  if (token === undefined || org === undefined) return { status: 401, body: { error: "missing, revoked or unknown token" } }
  const now = Date.now()
  if (!parts.limiter.admit(token, now)) return rateLimited
  if (body.kind === "malformed") return { status: 400, body: malformed.body }
  parts.store.advance(now)
  const ctx: PublicContext = {
    store: parts.store, org, now, query: url.searchParams, body: bodyValue(body),
    view: { now, mediaBase: parts.mediaBase }, clipDelayMs: parts.clipDelayMs, clipSpreadMs: parts.clipSpreadMs
  }
  return replyOf(() => routed(publicRoutes, req.method ?? "GET", url.pathname, ctx))
}

const rateLimited: Reply = { status: 429, body: { error: "rate limit exceeded" } }

/** An injected 429 looks exactly like a real one, so clients cannot tell them apart. */
const faultReply = (fault: Fault): Reply =>
  fault.status === 429 ? rateLimited : { status: fault.status ?? 500, body: { error: "injected fault" } }

/** Serves one request: control endpoints directly; public ones through faults, auth, rate limit, recording. */
export async function serve(parts: SimulatorParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://simulator")
  const body = await readBody(req)
  if (url.pathname.startsWith("/_control/")) return send(res, answerControl(parts, req, url, body))

  const token = bearer(req)
  const org = token === undefined ? undefined : parts.store.organizationOfToken(token)
  const seen = {
    at: Date.now(),
    method: req.method ?? "GET",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: bodyValue(body),
    organization: org?.key ?? null
  }
  if (body.kind === "too-large") {
    const reply = { status: 413, body: { error: "request body exceeds 1 MB" } }
    parts.recorder.record({ ...seen, status: reply.status, response: reply.body })
    return send(res, reply, { connection: "close" })
  }
  const fault = parts.faults.take(url.pathname, seen.at)
  const faultTag = fault === undefined ? {} : { fault: fault.kind }
  switch (fault?.kind) {
    case "status": {
      const reply = faultReply(fault)
      parts.recorder.record({ ...seen, ...faultTag, status: reply.status, response: reply.body })
      return send(res, reply)
    }
    case "reset":
    case "hang":
      parts.recorder.record({ ...seen, ...faultTag, status: null, response: null })
      if (fault.kind === "reset") req.socket.destroy()
      else parts.later(hangLimitMs, () => req.socket.destroy())
      return
    case "latency":
      await new Promise<void>((resolve) => parts.later(fault.latencyMs ?? 0, resolve))
  }
  const reply = answerPublic(parts, req, url, body, org)
  parts.recorder.record({ ...seen, ...faultTag, status: reply.status, response: reply.body })
  // The request took effect but the client never learns it: the unknown outcome a daemon must reconcile.
  if (fault?.kind === "reset-after-apply") return void req.socket.destroy()
  send(res, reply)
}
