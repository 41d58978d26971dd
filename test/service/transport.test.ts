import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { spawn } from "node:child_process"
import { type AddressInfo, connect, type Socket } from "node:net"
import { Effect, Option } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { freePort } from "../../scripts/support/free-port.ts"
import { failureOf, withClient, type Client } from "./harness.ts"

/** A bare HTTP server on loopback, for answers the simulator never gives. */
interface Seen { readonly method: string; readonly url: string; readonly authorization: string | undefined; readonly body: string }
let server: Server | undefined
const start = async (answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) => {
  const seen: Array<Seen> = []
  const connections = { count: 0 }
  server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => { body += chunk.toString() })
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization, body })
      answer(req, res, body)
    })
  })
  server.on("connection", () => { connections.count++ })
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, connections }
}
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(body))
}

afterEach(async () => {
  const running = server
  server = undefined
  if (running === undefined) return
  running.closeAllConnections()
  await new Promise((resolve) => running.close(resolve))
})

describe("service client transport", () => {
  it("writes the bearer header and URL-encodes ids as single path segments", async () => {
    const sim = await start((_req, res) => json(res, 200, { key: "s1" }))
    const answer = await withClient(sim.url, "tok-123", (c) =>
      c.postEventScore("a/b c?d", { timeStamp: 1, left: 1, right: 0, period: 1 }))
    expect(answer).toEqual({ key: "s1" })
    expect(sim.seen).toEqual([{
      method: "POST",
      url: "/public/events/a%2Fb%20c%3Fd/score",
      authorization: "Bearer tok-123",
      body: JSON.stringify({ timeStamp: 1, left: 1, right: 0, period: 1 })
    }])
  })

  it("keeps one connection alive across calls", async () => {
    const sim = await start((_req, res) => json(res, 200, { sports: ["tennis"] }))
    // Spaced a little, as scores and clicks are: back-to-back calls may open a second pooled connection.
    const spaced = (c: Client) => Effect.andThen(Effect.sleep(5), c.sports)
    await withClient(sim.url, "t", (c) => Effect.all([c.sports, spaced(c), spaced(c)]))
    expect(sim.seen).toHaveLength(3)
    expect(sim.connections.count).toBe(1)
  })

  it("reports the server's Date header with local time and latency", async () => {
    const serverDate = "Wed, 01 Jan 2025 00:00:00 GMT"
    const sim = await start((_req, res) => json(res, 200, { sports: [] }, { date: serverDate }))
    const before = Date.now()
    const seen = await withClient(sim.url, "t", (c) =>
      Effect.gen(function*() {
        const initially = yield* c.lastServerDate
        yield* c.sports
        return { initially, after: yield* c.lastServerDate }
      }))
    expect(Option.isNone(seen.initially)).toBe(true)
    const clock = Option.getOrThrow(seen.after)
    expect(clock.serverDate).toBe(Date.parse(serverDate))
    expect(clock.localDate).toBeGreaterThanOrEqual(before)
    expect(clock.localDate).toBeLessThanOrEqual(Date.now())
    expect(clock.latencyMs).toBeGreaterThanOrEqual(0)
  })

  it("reads Retry-After on 429, in seconds or as a date", async () => {
    let n = 0
    const sim = await start((_req, res) =>
      n++ === 0
        ? json(res, 429, { error: "slow down" }, { "retry-after": "3" })
        : json(res, 429, { error: "slow down" }, { "retry-after": new Date(Date.now() + 60_000).toUTCString() }))
    const [seconds, date] = await withClient(sim.url, "t", (c) => Effect.all([failureOf(c.sports), failureOf(c.sports)]))
    expect(seconds).toMatchObject({ _tag: "RateLimited", status: 429, retryAfterMs: 3000, error: "slow down" })
    expect(date._tag).toBe("RateLimited")
    const after = (date as { retryAfterMs?: number }).retryAfterMs ?? 0
    expect(after).toBeGreaterThan(55_000)
    expect(after).toBeLessThanOrEqual(60_000)
  })

  it("keeps plain-text error bodies and maps unnamed statuses to UnexpectedResponse", async () => {
    let n = 0
    const sim = await start((_req, res) => {
      res.writeHead(n++ === 0 ? 502 : 418, { "content-type": "text/plain" })
      res.end("upstream gone")
    })
    const [bad, teapot] = await withClient(sim.url, "t", (c) => Effect.all([failureOf(c.sports), failureOf(c.sports)]))
    expect(bad).toMatchObject({ _tag: "ServerError", status: 502, error: "upstream gone" })
    expect(teapot).toMatchObject({ _tag: "UnexpectedResponse", status: 418, detail: "upstream gone" })
  })

  it("fails a 2xx body that does not fit the contract as UnexpectedResponse", async () => {
    const sim = await start((_req, res) => json(res, 200, { eventKey: 42 }))
    const error = await withClient(sim.url, "t", (c) => failureOf(c.createEvent("ext-1", { companyKey: "o", name: "n" })))
    expect(error).toMatchObject({ _tag: "UnexpectedResponse", status: 200, method: "POST", path: "/public/events/ext-1" })
  })

  it("reports an answer cut off mid-body as sent", async () => {
    const sim = await start((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" })
      res.write("{\"key\":")
      setTimeout(() => res.destroy(), 20)
    })
    const error = await withClient(sim.url, "t", (c) => failureOf(c.postEventScore("e", { timeStamp: 1, left: 0, right: 0, period: 1 })))
    expect(error).toMatchObject({ _tag: "ConnectionFailed", sent: true })
  })

  it("reports a refused connection as not sent", async () => {
    const port = await freePort()
    const error = await withClient(`http://127.0.0.1:${port}`, "t", (c) => failureOf(c.sports))
    expect(error).toMatchObject({ _tag: "ConnectionFailed", sent: false, detail: "ECONNREFUSED", method: "GET", path: "/public/sports" })
  })

  it("reports a service that cannot be connected to in time as not sent, on the connect timeout", async () => {
    const listener = await listenerThatNeverAccepts()
    try {
      const started = Date.now()
      const error = await withClient(listener.url, "t", (c) => failureOf(c.sports), 1_000)
      expect(error).toMatchObject({ _tag: "RequestTimeout", sent: false, timeoutMs: 500, method: "GET", path: "/public/sports" })
      // The connect timeout (half the request's 1000 ms), not the request's own deadline.
      expect(Date.now() - started).toBeLessThan(950)
    } finally {
      listener.close()
    }
  })
})

/**
 * A loopback port whose accept queue is full: the kernel drops further SYNs, so a connect
 * hangs as it does towards a service behind a dropped route. Python, because a Node server
 * always accepts.
 */
const listenerThatNeverAccepts = async () => {
  const child = spawn("python3", ["-c", [
    "import socket, time",
    "s = socket.socket()",
    "s.bind(('127.0.0.1', 0))",
    "s.listen(0)",
    "print(s.getsockname()[1], flush=True)",
    "time.sleep(60)"
  ].join("\n")], { stdio: ["ignore", "pipe", "inherit"] })
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (data: Buffer) => resolve(Number(data.toString().trim())))
    child.once("exit", (code) => reject(new Error(`python3 exited with ${code} before listening`)))
  })
  // Connections the listener never accepts fill its queue; the connect that does not complete
  // within 200 ms shows it is full.
  const fillers: Array<Socket> = []
  for (let i = 0; i < 8; i++) {
    const socket = connect(port, "127.0.0.1")
    socket.on("error", () => {})
    fillers.push(socket)
    const connected = await new Promise<boolean>((resolve) => {
      socket.once("connect", () => resolve(true))
      setTimeout(() => resolve(false), 200)
    })
    if (!connected) break
  }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const socket of fillers) socket.destroy()
      child.kill("SIGKILL")
    }
  }
}
