import type { IncomingMessage } from "node:http"
import { Effect } from "effect"
import { jsonReply, plainReply, type Refusal, refuse } from "../wire-reply.ts"

/** API bodies are a place, a few buttons, a token: 64 kB is far beyond any, and holds a flood to little memory. */
export const jsonBodyLimit = 64 * 1024
/** The login form is one short field. */
export const formBodyLimit = 4 * 1024

const tooLarge = (limit: number) =>
  refuse({ ...jsonReply(413, { error: `request body over ${limit / 1024} kB: the setup server takes no more` }), headers: { connection: "close" } })

/** The request's body as text, refused with 413 past `limit` (read no further: the connection closes after the answer). */
export const readBody = (request: IncomingMessage, limit: number): Effect.Effect<string, Refusal> => {
  const declared = Number(request.headers["content-length"] ?? "0")
  if (declared > limit) return Effect.fail(tooLarge(limit))
  return Effect.callback<string, Refusal>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const finish = (outcome: Effect.Effect<string, Refusal>) => {
      request.off("data", onData).off("end", onEnd).off("error", onError)
      resume(outcome)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) finish(Effect.fail(tooLarge(limit)))
      else chunks.push(chunk)
    }
    const onEnd = () => finish(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
    const onError = () => finish(Effect.fail(refuse(plainReply(400, "request body could not be read"))))
    request.on("data", onData).on("end", onEnd).on("error", onError)
  })
}

/**
 * An API body: JSON only. Asking for application/json keeps out what a plain HTML form of another
 * site could post (its types are urlencoded, multipart and text/plain), behind the Origin check.
 */
export const parseJsonBody = (text: string, contentType: string | undefined): Effect.Effect<unknown, Refusal> => {
  if (text.trim() === "") return Effect.succeed(undefined)
  if (!/^application\/json\s*(;|$)/iu.test(contentType ?? "")) {
    return Effect.fail(refuse(jsonReply(415, { error: "request body must be JSON (Content-Type: application/json)" })))
  }
  return Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: () => refuse(jsonReply(400, { error: "request body is not valid JSON" }))
  })
}
