import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { FaultBook } from "./faults.ts"
import { serve, type SimulatorParts } from "./pipeline.ts"
import { RateLimiter } from "./rate-limit.ts"
import { Recorder } from "./recorder.ts"
import { demoSeed, type SimulatorSeed } from "./seed.ts"
import { Store } from "./store.ts"

export { demoSeed, loadSeed, type SimulatorSeed } from "./seed.ts"
export type { RecordedRequest, RequestFilter } from "./recorder.ts"
export type { Fault, FaultKind } from "./faults.ts"

export interface SimulatorOptions {
  readonly port?: number
  readonly host?: string
  /** Per token. */
  readonly requestsPerSecond?: number
  /** Token-bucket capacity. */
  readonly burst?: number
  readonly seed?: SimulatorSeed
  /** A moment's first clip appears this long after the click arrives (default 3000). */
  readonly clipDelayMs?: number
  /** Each further camera's clip appears this much after the previous one (default 0: all at once). */
  readonly clipSpreadMs?: number
  /** Added to the time in every `Date` header: a service whose clock is off, for skew tests. */
  readonly clockOffsetMs?: number
}

export interface RunningSimulator {
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

/** Starts the Event Highlights Service simulator on a real HTTP port (a free one by default). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const timers = new Set<NodeJS.Timeout>()
  const parts: SimulatorParts = {
    store: new Store(options.seed ?? demoSeed),
    faults: new FaultBook(),
    recorder: new Recorder(),
    limiter: new RateLimiter({ requestsPerSecond: options.requestsPerSecond ?? 1, burst: options.burst ?? 1 }),
    clipDelayMs: options.clipDelayMs ?? 3000,
    clipSpreadMs: options.clipSpreadMs ?? 0,
    mediaBase: "",
    later: (ms, fn) => {
      const timer = setTimeout(() => { timers.delete(timer); fn() }, ms)
      timers.add(timer)
    }
  }
  const clockOffsetMs = options.clockOffsetMs ?? 0
  const server = createServer((req, res) => {
    if (clockOffsetMs !== 0) res.setHeader("date", new Date(Date.now() + clockOffsetMs).toUTCString())
    serve(parts, req, res).catch((error: unknown) => {
      // A simulator bug must be visible to the test that hit it, not swallowed as a hang.
      console.error("simulator: unexpected error", error)
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: "internal simulator error" }))
    })
  })
  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => { server.off("error", reject); resolve() })
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`
  parts.mediaBase = `${url}/_media`
  let closing: Promise<void> | undefined
  const close = (): Promise<void> => new Promise<void>((resolve, reject) => {
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
    server.close((error) => error === undefined ? resolve() : reject(error))
    // Hung and keep-alive connections would otherwise hold close() open.
    server.closeAllConnections()
  })
  return { url, port, close: () => (closing ??= close()) }
}
