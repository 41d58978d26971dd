import { Result, Schema, SchemaIssue } from "effect"

/** One entry of a 400 answer's `errors` array, as the service document's Errors table describes. */
export interface FieldError {
  readonly field: string
  readonly message: string
}

/** An answer other than success, thrown by handlers and turned into the HTTP response by the pipeline. */
export class HttpFailure extends Error {
  readonly status: number
  readonly body: unknown
  constructor(status: number, body: unknown) {
    super(`HTTP ${status}`)
    this.status = status
    this.body = body
  }
}

export const invalid = (errors: ReadonlyArray<FieldError>): HttpFailure => new HttpFailure(400, { errors })
export const badField = (field: string, message: string): HttpFailure => invalid([{ field, message }])
export const statusFailure = (status: number, error: string): HttpFailure => new HttpFailure(status, { error })
export const notFound = (what: string): HttpFailure => statusFailure(404, `${what} not found`)

/** `["overlays", 0, "position"]` → `overlays[0].position`. */
export const fieldPath = (path: ReadonlyArray<PropertyKey>, prefix = ""): string =>
  path.reduce<string>(
    (text, p) => typeof p === "number" ? `${text}[${p}]` : text === "" ? String(p) : `${text}.${String(p)}`,
    prefix
  )

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** Field errors for `input` against `schema`; every failing field is reported, not only the first. */
export function fieldErrors<S extends Schema.ConstraintDecoder<unknown>>(
  schema: S,
  input: unknown,
  prefix = ""
): Result.Result<S["Type"], ReadonlyArray<FieldError>> {
  const decoded = Schema.decodeUnknownResult(schema)(input, { errors: "all" })
  if (Result.isSuccess(decoded)) return Result.succeed(decoded.success)
  const issues = formatIssues(decoded.failure.issue).issues
  return Result.fail(issues.map((issue) => ({
    field: fieldPath((issue.path ?? []).map((p) => typeof p === "object" ? p.key : p), prefix) || prefix || "body",
    message: issue.message
  })))
}

/** Decodes `input` or throws the 400 answer naming every failing field. */
export function decodeOr400<S extends Schema.ConstraintDecoder<unknown>>(schema: S, input: unknown, prefix = ""): S["Type"] {
  const result = fieldErrors(schema, input, prefix)
  if (Result.isFailure(result)) throw invalid(result.failure)
  return result.success
}
