import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as net from "node:net"

const srv = net.createServer((s) => { s.once("data", () => s.resetAndDestroy()) })
await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r))
const port = (srv.address() as net.AddressInfo).port
const show = (e: any) => { const c = e?.reason?.cause; console.log(e?.reason?._tag, c?.name, c?.code, c?.message, c?.cause?.code) }
const prog = Effect.gen(function* () {
  const http = yield* HttpClient.HttpClient
  const r1 = yield* Effect.flip(http.execute(HttpClientRequest.get(`http://127.0.0.1:${port}/x`)))
  show(r1)
  const r2 = yield* Effect.flip(http.execute(HttpClientRequest.get(`http://127.0.0.1:1/x`)))
  show(r2)
  const r3 = yield* Effect.flip(http.execute(HttpClientRequest.get(`https://nonexistent.invalid/x`)))
  show(r3)
  const r4 = yield* Effect.flip(http.execute(HttpClientRequest.get(`http://10.255.255.1/x`)))
  show(r4)
})
await Effect.runPromise(prog.pipe(Effect.provide(NodeHttpClient.layerUndiciOptions({ connect: { timeout: 500 } }))))
srv.close()
