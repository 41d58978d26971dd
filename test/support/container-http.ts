import { eventually } from "../../scripts/support/eventually.ts"
import type { SystemdContainer } from "../../scripts/support/systemd-container.ts"

/**
 * HTTP inside a systemd container's own network (loopback only, out of the test's reach): small
 * scripts run by the Node the venue's package carries (/usr/lib/scorebridge/runtime/node), so
 * nothing but the package has to be in the container. One request per run: a request to the
 * setup page as a browser sends it, and a listener that records every request it gets.
 */

const node = "/usr/lib/scorebridge/runtime/node"
const clientScript = "/root/test-http/request.mjs"
const listenerScript = "/root/test-http/listener.mjs"

// The request comes as JSON on stdin; the answer goes to stdout as JSON. Bounded: a server that
// holds the request (a FIFO opened by a capture) is an answer too, status 0.
const client = `
import { request } from "node:http"
let input = ""
for await (const chunk of process.stdin) input += chunk
const { port, method, path, headers, body, timeoutMs } = JSON.parse(input)
const req = request({ host: "127.0.0.1", port, method, path, headers, timeout: timeoutMs }, (res) => {
  let text = ""
  res.setEncoding("utf8")
  res.on("data", (c) => (text += c))
  res.on("end", () => console.log(JSON.stringify({ status: res.statusCode, headers: res.headers, body: text })))
})
req.on("timeout", () => { console.log(JSON.stringify({ status: 0, headers: {}, body: "no answer within " + timeoutMs + " ms" })); process.exit(0) })
req.on("error", (e) => { console.log(JSON.stringify({ status: 0, headers: {}, body: String(e) })); process.exit(0) })
req.end(body)
`

// Appends one JSON line per request (method, url, host, authorization) to the file named, and
// answers 200 with an empty list: enough for a check to go on talking.
const listener = `
import { appendFileSync } from "node:fs"
import { createServer } from "node:http"
const [host, port, record] = process.argv.slice(2)
createServer((req, res) => {
  appendFileSync(record, JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, authorization: req.headers.authorization ?? null }) + "\\n")
  res.writeHead(200, { "content-type": "application/json" })
  res.end(JSON.stringify({ places: [], items: [] }))
}).listen(Number(port), host, () => console.log("listening"))
`

export interface PageAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: string
}

export interface PageRequest {
  readonly method?: string
  readonly path: string
  readonly cookie?: string
  readonly json?: unknown
  readonly form?: Readonly<Record<string, string>>
  readonly timeoutMs?: number
}

/** Requests to a page on 127.0.0.1:`port` inside, with the Host and Origin the browser on the printed address sends. */
export const pageClient = (container: SystemdContainer, port: number) => {
  container.writeFile(clientScript, client)
  return async ({ method = "GET", path, cookie, json, form, timeoutMs = 10_000 }: PageRequest): Promise<PageAnswer> => {
    const origin = `http://127.0.0.1:${port}`
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...(method === "GET" ? {} : { origin }) }
    if (cookie !== undefined) headers["cookie"] = cookie
    const body = form !== undefined ? new URLSearchParams(form).toString() : json !== undefined ? JSON.stringify(json) : undefined
    if (body !== undefined) headers["content-type"] = form !== undefined ? "application/x-www-form-urlencoded" : "application/json"
    const ran = await container.run([node, clientScript], { input: JSON.stringify({ port, method, path, headers, body, timeoutMs }), timeoutMs: timeoutMs + 10_000 })
    if (ran.code !== 0) throw new Error(`the request ${method} ${path} inside the container failed: ${ran.stderr}`)
    return JSON.parse(ran.stdout) as PageAnswer
  }
}

export interface Recorded {
  readonly method: string
  readonly url: string
  readonly host: string
  readonly authorization: string | null
}

/** A listener on `host:port` inside that records every request; `requests()` reads what it recorded so far. */
export const recordingListener = async (container: SystemdContainer, host: string, port: number) => {
  container.writeFile(listenerScript, listener)
  const record = `/root/test-http/requests-${host}-${port}.jsonl`
  container.writeFile(record, "")
  const started = container.start([node, listenerScript, host, String(port), record])
  await eventually(`the listener on ${host}:${port} inside the container`, () => {
    if (started.exited()) throw new Error(`the listener on ${host}:${port} exited: ${started.output()}`)
    return started.output().includes("listening") || undefined
  }, { timeoutMs: 10_000 })
  return {
    url: `http://${host}:${port}`,
    requests: (): ReadonlyArray<Recorded> => container.readFile(record).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Recorded),
    stop: started.stop
  }
}

/** The session cookie of a 303 from POST /login, as the browser sends it back. */
export const sessionCookieOf = (answer: PageAnswer): string => String(answer.headers["set-cookie"]).split(";")[0]!
