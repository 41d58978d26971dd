import type { Effect } from "effect"

/**
 * What the setup server's routes see and answer. The server (setup-server.ts) has already
 * checked the Host, the session and, for anything but GET, the Origin before a route runs:
 * a route only does its step.
 */
export interface SetupRequest {
  readonly method: string
  /** The path without its query: "/api/listen/3". */
  readonly path: string
  /** The `:name` parts of the route's path pattern. */
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  /** The JSON body (API routes take `application/json`), `undefined` without one. */
  readonly body: unknown
  /** The browser session the request came from: a short label for the journal, never the cookie. */
  readonly session: string
}

export interface SetupReply {
  readonly status: number
  /** Sent as `application/json`. */
  readonly json?: unknown
  /** Sent as `text/html` (pages only; every value in it escaped by whoever built it). */
  readonly html?: string
  readonly text?: string
  /** Sent with its own content type: the page's script and style. */
  readonly asset?: { readonly type: string; readonly body: string }
}

export interface SetupRoute {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  /** "/api/listen/:id": literal segments and `:name` segments. */
  readonly path: string
  /** Routes fail with nothing: a problem is an answer (4xx with `{ error }` in words), a defect is a 500 the server logs. */
  readonly handle: (request: SetupRequest) => Effect.Effect<SetupReply>
}

/** `{ error }`: what went wrong and what to do, in words the page shows as they are. */
export const problem = (status: number, error: string): SetupReply => ({ status, json: { error } })

export const ok = (json: unknown): SetupReply => ({ status: 200, json })
