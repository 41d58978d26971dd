import * as http from "node:http"
import * as https from "node:https"
import type { Duplex } from "node:stream"
import { Effect, Layer } from "effect"
import { HttpAgent } from "@effect/platform-node/NodeHttpClient"

/** The code a connection gets when it could not be opened in time; the request never left. */
export const connectTimeoutCode = "SCOREBRIDGE_CONNECT_TIMEOUT"

type CreateConnection = (options: object, callback: (error: Error | null, socket: Duplex) => void) => Duplex | null | undefined

/**
 * node:http's agents have no connect timeout: a service behind a dropped route would hold a
 * request until its own deadline, whose outcome can only be "unknown" (and then costs a
 * read-back). Destroying a socket that has not connected in time makes it a plain "not sent".
 */
const withConnectTimeout = <A extends http.Agent>(agent: A, connectTimeoutMs: number): A => {
  const create = (agent as unknown as { createConnection: CreateConnection }).createConnection.bind(agent)
  const patched: CreateConnection = (options, callback) => {
    const socket = create(options, callback)
    if (socket === null || socket === undefined) return socket
    const timer = setTimeout(() => {
      socket.destroy(Object.assign(new Error(`could not connect within ${connectTimeoutMs} ms`), { code: connectTimeoutCode }))
    }, connectTimeoutMs)
    const clear = () => clearTimeout(timer)
    socket.once("connect", clear)
    socket.once("close", clear)
    return socket
  }
  ;(agent as unknown as { createConnection: CreateConnection }).createConnection = patched
  return agent
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
          http: withConnectTimeout(new http.Agent(options), connectTimeoutMs),
          https: withConnectTimeout(new https.Agent(options), connectTimeoutMs)
        }
      }),
      (agents) =>
        Effect.sync(() => {
          agents.http.destroy()
          agents.https.destroy()
        })
    )
  )
