import { ByteSize, Effect, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { BodyNotJson, BodyTooLarge, BodyUnreadable } from "./edge-errors.ts"

const tooLarge = (limit: number, server: string) => new BodyTooLarge({ message: `request body over ${limit / 1024} kB: the ${server} takes no more` })

/**
 * The request's body as text, refused with 413 past `limit` bytes (`server` names who refuses):
 * a declared length over it is refused unread, a longer stream once the limit is passed.
 */
export const bodyText = (limit: number, server: string) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (Number(request.headers["content-length"] ?? "0") > limit) return yield* tooLarge(limit, server)
    return yield* request.text.pipe(
      Effect.provideService(HttpServerRequest.MaxBodySize, ByteSize.bytes(limit)),
      Effect.mapError((error) =>
        error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
          ? tooLarge(limit, server)
          : new BodyUnreadable({ message: "request body could not be read" })
      )
    )
  })

const Json = Schema.fromJsonString(Schema.Unknown)

/**
 * An API body: JSON only, decoded with Schema; none at all is `undefined`. Asking for
 * application/json keeps out what a plain HTML form of another site could post (urlencoded,
 * multipart, text/plain), behind the Origin wall.
 */
export const jsonBody = (limit: number, server: string) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const text = yield* bodyText(limit, server)
    if (text.trim() === "") return undefined
    if (!/^application\/json\s*(;|$)/iu.test(request.headers["content-type"] ?? "")) return yield* new BodyNotJson()
    return yield* Schema.decodeUnknownEffect(Json)(text).pipe(
      Effect.mapError(() => new BodyUnreadable({ message: "request body is not valid JSON" }))
    )
  })
