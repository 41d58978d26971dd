/**
 * The API call: same-origin cookie, JSON bodies, a 401 says the session ended. An answer is
 * either the route's own shape (ok) or a refusal in words.
 */
import type { Refusal } from "./api-types.ts"
import { say, stopPolling } from "./core.ts"

export type Reply<T> =
  | { readonly status: number; readonly ok: true; readonly json: T }
  | { readonly status: number; readonly ok: false; readonly json: Refusal }

type Method = "GET" | "POST" | "DELETE"

const sessionEnded = (): void => {
  say("banner", "Your session has ended. Reload the page and log in with a new code (the setup server prints one).")
  stopPolling()
}

const parsed = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : {}
  } catch {
    return { error: text }
  }
}

/**
 * `background`: the page's own polling, which the server serves without counting it as use (no
 * idle stop or session kept alive by an open tab).
 */
export const api = async <T>(method: Method, path: string, body?: unknown, background?: boolean): Promise<Reply<T>> => {
  const headers: Record<string, string> = { Accept: "application/json" }
  if (background) headers["X-Scorebridge-Background"] = "1"
  const init: RequestInit = { method, credentials: "same-origin", referrerPolicy: "same-origin", headers }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json"
    init.body = JSON.stringify(body)
  }
  let response: Response
  try {
    response = await fetch(path, init)
  } catch (e) {
    const error = "The setup server does not answer (" + (e as Error).message + "): it stops by itself after 30 minutes unused."
    return { status: 0, ok: false, json: { error } }
  }
  const json = parsed(await response.text())
  if (response.status === 401) sessionEnded()
  return response.ok ? { status: response.status, ok: true, json: json as T } : { status: response.status, ok: false, json: json as Refusal }
}

export const errorOf = (r: { readonly status: number; readonly json: unknown }): string => {
  const error = (r.json as Refusal | null)?.error
  return error || "HTTP " + r.status
}
