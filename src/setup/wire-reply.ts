import { Data } from "effect"
import { HttpServerResponse } from "effect/http"
import type { SetupReply } from "./setup-route.ts"

/** An answer as the setup server writes it: what a route said, or the server's own (login, refusals). */
export interface WireReply {
  readonly status: number
  readonly type: string
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
}

export const plainReply = (status: number, text: string, headers?: Readonly<Record<string, string>>): WireReply => ({
  status,
  type: "text/plain; charset=utf-8",
  body: `${text}\n`,
  ...(headers === undefined ? {} : { headers })
})

export const jsonReply = (status: number, json: unknown): WireReply => ({ status, type: "application/json; charset=utf-8", body: JSON.stringify(json) })

export const htmlReply = (status: number, html: string, headers?: Readonly<Record<string, string>>): WireReply => ({
  status,
  type: "text/html; charset=utf-8",
  body: html,
  ...(headers === undefined ? {} : { headers })
})

/** A request turned away before any route ran: the answer it gets. */
export class Refusal extends Data.TaggedError("Refusal")<{ readonly reply: WireReply }> {}

export const refuse = (reply: WireReply) => new Refusal({ reply })

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
