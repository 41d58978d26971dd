import { readFile } from "node:fs/promises"
import { Effect, Schema } from "effect"

/** Why a template's HTML could not be had for checking; `source` is a path or URL, never a credential. */
export class TemplateUnavailable extends Schema.TaggedError<TemplateUnavailable>()("TemplateUnavailable", {
  source: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.source}: ${this.reason}`
  }
}

const fetchTimeoutMs = 10_000
// Templates are small hand-written pages; a larger answer is not a template, and must not fill memory.
const maxTemplateBytes = 1_000_000

const fileFailure = (cause: unknown): string => {
  switch ((cause as { code?: unknown } | null)?.code) {
    case "ENOENT":
      return "file not found"
    case "EACCES":
    case "EPERM":
      return "permission denied"
    case "EISDIR":
      return "is a directory, not a template file"
    default:
      return cause instanceof Error ? cause.message : String(cause)
  }
}

/** The local copy of a template (`templateFile`). */
export const readTemplateFile = (path: string): Effect.Effect<string, TemplateUnavailable> =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (cause) => new TemplateUnavailable({ source: path, reason: fileFailure(cause) })
  })

const bodyText = async (response: Response): Promise<string> => {
  if (response.body === null) return ""
  const chunks: Array<Uint8Array> = []
  let size = 0
  for await (const chunk of response.body) {
    size += chunk.byteLength
    if (size > maxTemplateBytes) throw new Error(`larger than ${maxTemplateBytes} bytes: not a template`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString("utf8")
}

const fetchFailure = (cause: unknown): string => {
  if (cause instanceof DOMException && cause.name === "TimeoutError") return `no answer within ${fetchTimeoutMs / 1000} s`
  const reason = cause instanceof Error ? cause.message : String(cause)
  // fetch reports network trouble as "fetch failed" with the useful part in `cause`.
  const detail = cause instanceof Error && cause.cause instanceof Error ? `: ${cause.cause.message}` : ""
  return `${reason}${detail}`
}

/** Downloads a template as the service would (`templateSource`), within 10 s. */
export const fetchTemplate = (url: string): Effect.Effect<string, TemplateUnavailable> =>
  Effect.tryPromise({
    try: async (interrupted) => {
      const response = await fetch(url, {
        signal: AbortSignal.any([interrupted, AbortSignal.timeout(fetchTimeoutMs)]),
        redirect: "follow"
      })
      if (!response.ok) {
        await response.body?.cancel()
        throw new Error(`HTTP ${response.status}: the service could not download it either`)
      }
      return await bodyText(response)
    },
    catch: (cause) => new TemplateUnavailable({ source: url, reason: fetchFailure(cause) })
  })
