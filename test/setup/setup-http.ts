import { request as httpRequest } from "node:http"

/** An answer of the setup server as the test got it. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: string
}

export interface Ask {
  readonly method?: string
  readonly path?: string
  /** Defaults to `127.0.0.1:PORT`, the address the server printed. */
  readonly host?: string
  /** Defaults to `http://<host>` on anything but GET and HEAD, as a browser sends it; `null` sends none. */
  readonly origin?: string | null
  readonly cookie?: string
  readonly form?: Record<string, string>
  readonly json?: string
  readonly contentType?: string
  /** Sent as the page's background polling is: `x-scorebridge-background: 1`. */
  readonly background?: boolean
}

/**
 * One request to the setup server on 127.0.0.1:`port`, with the Host and Origin a browser (or an
 * attacker's page) would send: node:http, since fetch forbids setting Host.
 */
export const ask = (port: number, { method = "GET", path = "/", host = `127.0.0.1:${port}`, origin, cookie, form, json, contentType, background }: Ask): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const body = form !== undefined ? new URLSearchParams(form).toString() : json
    const headers: Record<string, string> = { host }
    const sentOrigin = origin === undefined ? (method === "GET" || method === "HEAD" ? null : `http://${host}`) : origin
    if (sentOrigin !== null) headers["origin"] = sentOrigin
    if (cookie !== undefined) headers["cookie"] = cookie
    if (background === true) headers["x-scorebridge-background"] = "1"
    const type = contentType ?? (form !== undefined ? "application/x-www-form-urlencoded" : json !== undefined ? "application/json" : undefined)
    if (type !== undefined) headers["content-type"] = type
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (text += chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }))
    })
    req.on("error", reject)
    req.end(body)
  })

/** The session cookie of a 303 from POST /login, as the browser sends it back. */
export const cookieFrom = (answer: Answer): string => String(answer.headers["set-cookie"]).split(";")[0]!
