import { HttpServerResponse } from "effect/http"
import type { SetupReply } from "./setup-route.ts"

/** An answer as the setup server writes it: what a route said, or the server's own (login, logout); the edge's refusals are its own (src/transport/http-edge/edge-errors.ts). */
export interface WireReply {
  readonly status: number
  readonly type: string
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
}

export const jsonReply = (status: number, json: unknown): WireReply => ({ status, type: "application/json; charset=utf-8", body: JSON.stringify(json) })

export const htmlReply = (status: number, html: string, headers?: Readonly<Record<string, string>>): WireReply => ({
  status,
  type: "text/html; charset=utf-8",
  body: html,
  ...(headers === undefined ? {} : { headers })
})

/** A route's answer on the wire. A reply with nothing in it is an empty JSON object, never an empty 200 the page cannot parse. */
export const wireReply = (reply: SetupReply): WireReply => {
  if (reply.html !== undefined) return htmlReply(reply.status, reply.html)
  if (reply.asset !== undefined) return { status: reply.status, type: reply.asset.type, body: reply.asset.body }
  if (reply.text !== undefined) return { status: reply.status, type: "text/plain; charset=utf-8", body: reply.text }
  return jsonReply(reply.status, reply.json ?? {})
}

/** An answer as effect/http writes it. */
export const toResponse = (reply: WireReply): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(reply.body, { status: reply.status, contentType: reply.type, ...(reply.headers === undefined ? {} : { headers: reply.headers }) })
