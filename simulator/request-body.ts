import type { IncomingMessage } from "node:http"

export type RequestBody =
  | { readonly kind: "none" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "malformed" }
  | { readonly kind: "too-large" }

export const maxBodyBytes = 1024 * 1024

/** Reads at most `maxBodyBytes`; beyond that the rest is discarded unread, so memory stays bounded. */
export function readBody(req: IncomingMessage): Promise<RequestBody> {
  const declared = Number(req.headers["content-length"] ?? 0)
  if (declared > maxBodyBytes) {
    req.resume()
    return Promise.resolve({ kind: "too-large" })
  }
  return new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let tooLarge = false
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBodyBytes) tooLarge = true
      if (!tooLarge) chunks.push(chunk)
    })
    req.on("error", () => resolve({ kind: "malformed" }))
    req.on("end", () => {
      if (tooLarge) return resolve({ kind: "too-large" })
      const text = Buffer.concat(chunks).toString("utf8")
      if (text.trim() === "") return resolve({ kind: "none" })
      try {
        resolve({ kind: "json", value: JSON.parse(text) as unknown })
      } catch {
        resolve({ kind: "malformed" })
      }
    })
  })
}

export const bodyValue = (body: RequestBody): unknown => body.kind === "json" ? body.value : null
