import { Effect, Layer, Redacted } from "effect"
import { ServiceClient } from "../../src/service/client.ts"
import { ServiceCalls } from "../../src/service/service-calls.ts"
import { eventAdmin } from "./event-admin.ts"

/** The bridge's client, and the calls only the tests make (event-admin.ts), on one connection pool. */
export type Client = ServiceClient["Service"] & ReturnType<typeof eventAdmin>

/** Runs `use` against a real client for `baseUrl`; the client's connections close when it ends. */
export const withClient = <A, E>(
  baseUrl: string,
  token: string,
  use: (client: Client) => Effect.Effect<A, E>,
  timeoutMs?: number
): Promise<A> =>
  Effect.runPromise(
    Effect.gen(function*() {
      const client = yield* ServiceClient
      return yield* use({ ...client, ...eventAdmin(yield* ServiceCalls) })
    }).pipe(
      Effect.provide(ServiceClient.onCalls.pipe(
        Layer.provideMerge(ServiceCalls.layer({ baseUrl, token: Redacted.make(token), ...(timeoutMs === undefined ? {} : { timeoutMs }) }))
      ))
    )
  )

/** The failure of `effect`, for asserting on it; fails the test if `effect` succeeded. */
export const failureOf = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<E> =>
  Effect.flip(effect).pipe(Effect.catch((value) => Effect.die(new Error(`expected a failure, got ${JSON.stringify(value)}`))))

export const tennisEntry = (timeStamp: number) => ({
  timeStamp,
  left: 0,
  right: 0,
  period: 1,
  scoreValue: { gameScores: [[1, 0]] as ReadonlyArray<readonly [number, number]>, pointScore: [2, 1] as const }
})

export const volleyballEntry = (timeStamp: number) => ({
  timeStamp,
  scoreValue: { gameScores: [[25, 23], [3, 1]] as ReadonlyArray<readonly [number, number]> }
})
