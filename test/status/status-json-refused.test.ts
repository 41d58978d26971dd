import { format } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { UnknownPlace } from "../../src/timeline/unknown-place.ts"
import { BridgeStatus } from "../../src/status/status-model.ts"
import { statusServerLayer } from "../../src/status/status-server.ts"
import type { StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"

/**
 * The status server serves only what /status.json's Schema encodes, the Schema its readers decode
 * with: a snapshot it refuses (a bug in the model) is a 500 that says so and a log line naming the
 * field, never a body the upgrade window or the setup page would then refuse as "not the bridge's".
 */

const snapshot = (sentLastMinute: number): StatusSnapshot => ({
  generatedAt: 1_000,
  startedAt: 0,
  venueClock: { timeZone: "UTC", utcOffsetMinutes: 0 },
  healthy: true,
  reasons: [],
  places: [],
  token: { sentLastMinute, limitPerMinute: 60, waiting: { click: 0, score: 0, backlog: 0 }, backoffUntil: null, suspended: null },
  links: [],
  clockSkewMs: null,
  outboxDisk: { fsyncs: 0, fsyncSeconds: 0, slowFsyncs: 0, slowCommits: 0 },
  thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 60_000 },
  timelines: {},
  rollback: null
})

/** The status server on a free loopback port, in front of a model that answers `made`. */
const serving = (made: StatusSnapshot, logs: Array<string>) =>
  Effect.gen(function*() {
    const port = yield* Effect.promise(freePort)
    const model = Layer.succeed(BridgeStatus, BridgeStatus.of({
      snapshot: Effect.succeed(made),
      metrics: Effect.succeed(""),
      timeline: (key) => Effect.fail(new UnknownPlace({ place: key, known: [] }))
    }))
    const collector = Logger.make(({ message }) => logs.push(format(...(Array.isArray(message) ? message : [message]))))
    yield* Layer.build(statusServerLayer(`127.0.0.1:${port}`).pipe(Layer.provide(model), Layer.provide(Logger.layer([collector]))))
    const url = `http://127.0.0.1:${port}`
    yield* Effect.promise(() => eventually("the status page to listen", () => fetch(`${url}/healthz`).then(() => true, () => undefined)))
    return url
  })

describe("/status.json through its Schema", () => {
  it.live("serves a snapshot the Schema encodes, and answers 500 with the field in the log for one it refuses", () =>
    Effect.gen(function*() {
      const good: Array<string> = []
      const fine = yield* serving(snapshot(3), good)
      const answer = yield* Effect.promise(() => fetch(`${fine}/status.json`).then(async (r) => ({ status: r.status, body: await r.json() })))
      expect(answer).toMatchObject({ status: 200, body: { token: { sentLastMinute: 3 } } })

      const logs: Array<string> = []
      const broken = yield* serving(snapshot(2.5), logs)
      const refused = yield* Effect.promise(() => fetch(`${broken}/status.json`).then(async (r) => ({ status: r.status, body: await r.text() })))
      expect(refused).toEqual({ status: 500, body: "status.json unavailable: the snapshot does not fit its Schema; the bridge's log names the field\n" })
      expect(logs.find((line) => line.startsWith("/status.json: the snapshot does not fit its Schema"))).toMatch(/\["token"\]\["sentLastMinute"\]/u)
      expect((yield* Effect.promise(() => fetch(`${broken}/healthz`))).status).toBe(200)
    }).pipe(Effect.scoped))
})
