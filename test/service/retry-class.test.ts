import { describe, expect, it } from "vitest"
import {
  BadRequest, Conflict, ConnectionFailed, Forbidden, NotFound, RateLimited, RequestTimeout,
  ServerError, StillRunning, Unauthorized, UnexpectedResponse, Unprocessable, retryClass
} from "../../src/service/errors.ts"

const at = { method: "POST", path: "/public/events/e1/score" }

describe("retryClass", () => {
  it.each([
    [new BadRequest({ ...at, status: 400, errors: [] }), "never"],
    [new Forbidden({ ...at, status: 403 }), "never"],
    [new NotFound({ ...at, status: 404 }), "never"],
    [new Conflict({ ...at, status: 409 }), "never"],
    [new StillRunning({ ...at, status: 417 }), "never"],
    [new UnexpectedResponse({ ...at, status: 200, detail: "x" }), "never"],
    [new RateLimited({ ...at, status: 429 }), "rate-limited"],
    [new ServerError({ ...at, status: 503 }), "transient"],
    [new RequestTimeout({ ...at, timeoutMs: 10, sent: true }), "transient"],
    [new ConnectionFailed({ ...at, sent: false, detail: "ECONNREFUSED" }), "transient"],
    [new Unauthorized({ ...at, status: 401 }), "unauthorized"],
    [new Unprocessable({ ...at, status: 422 }), "unprocessable"]
  ] as const)("%s → %s", (error, expected) => {
    expect(retryClass(error)).toBe(expected)
  })
})
