import * as http from "node:http"
import * as https from "node:https"
import type { Duplex } from "node:stream"
import { Effect, Layer } from "effect"
import { HttpAgent } from "@effect/platform-node/NodeHttpClient"

/** The code a connection gets when it could not be opened in time; the request never left. */
export const connectTimeoutCode = "SCOREBRIDGE_CONNECT_TIMEOUT"

type Created = Duplex | null | undefined

/**
 * node:http's agents have no connect timeout: a service behind a dropped route would hold a
 * request until its own deadline, whose outcome can only be "unknown" (and then costs a
 * read-back). Destroying a socket that has not connected in time makes it a plain "not sent".
 */
const connectWithin = (socket: Created, connectTimeoutMs: number): Created => {
  if (socket === null || socket === undefined) return socket
  const timer = setTimeout(() => {
    socket.destroy(Object.assign(new Error(`could not connect within ${connectTimeoutMs} ms`), { code: connectTimeoutCode }))
  }, connectTimeoutMs)
  const clear = () => clearTimeout(timer)
  socket.once("connect", clear)
  socket.once("close", clear)
  return socket
}

// Node documents `createConnection` as the method a custom agent overrides; both agents add the timeout there.
class ServiceHttpAgent extends http.Agent {
  readonly #connectTimeoutMs: number
  constructor(options: http.AgentOptions, connectTimeoutMs: number) {
    super(options)
    this.#connectTimeoutMs = connectTimeoutMs
  }
  override createConnection(...args: Parameters<http.Agent["createConnection"]>): Created {
    return connectWithin(super.createConnection(...args), this.#connectTimeoutMs)
  }
}

class ServiceHttpsAgent extends https.Agent {
  readonly #connectTimeoutMs: number
  constructor(options: https.AgentOptions, connectTimeoutMs: number) {
    super(options)
    this.#connectTimeoutMs = connectTimeoutMs
  }
  override createConnection(...args: Parameters<https.Agent["createConnection"]>): Created {
    return connectWithin(super.createConnection(...args), this.#connectTimeoutMs)
  }
}

/**
 * The connection pool of the service client: node:http rather than undici, which needs
 * WebAssembly (the daemon runs with --jitless, see bin/scorebridge) and is a second HTTP stack
 * in memory. Idle connections are kept so a click goes out on an open connection instead of
 * waiting for a TCP and TLS handshake; Node closes them before the service's advertised
 * keep-alive timeout runs out.
 */
export const serviceHttpAgent = (connectTimeoutMs: number): Layer.Layer<HttpAgent> =>
  Layer.effect(HttpAgent)(
    Effect.acquireRelease(
      Effect.sync(() => {
        const options = { keepAlive: true, scheduling: "lifo" as const }
        return {
          http: new ServiceHttpAgent(options, connectTimeoutMs),
          https: new ServiceHttpsAgent(options, connectTimeoutMs)
        }
      }),
      (agents) =>
        Effect.sync(() => {
          agents.http.destroy()
          agents.https.destroy()
        })
    )
  )
