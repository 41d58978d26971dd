import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Layer, Redacted, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { emptyStats } from "../../adapters/decoder.ts"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import type { LinkState } from "../../src/domain/received.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { ServiceClient } from "../../src/service/client.ts"
import { BridgeEvents, type BridgeEvent } from "../../src/bus/bridge-events.ts"
import { BridgeStatus, type StatusOptions } from "../../src/status/status-model.ts"
import type { PlaceStatus, StatusSnapshot } from "../../src/status/status-snapshot.ts"
import { statusModelLayer } from "./status-model-layer.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

/**
 * The status model on real parts (bus, outbox on disk, rate budget, active
 * events), fed real bridge events; virtual time, so "no data for 10 s" is a
 * clock adjustment. The broker link is a SubscriptionRef the test sets.
 */

const options: StatusOptions = {
  places: [
    { key: "court-1", name: "Court 1", sport: "basketball", scoreboard: { link: "serial", target: "/dev/ttyCOURT1" }, buttonSources: ["remote"] },
    { key: "court-2", sport: "volleyball", scoreboard: { link: "mqtt", target: "venue/court-2/score" }, buttonSources: [] }
  ],
  buttons: [{ name: "remote", overMqtt: false }],
  mqtt: true,
  thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 60_000 }
}

const connected: LinkState = { _tag: "connected", target: "/dev/ttyCOURT1" }


const withModel = <A, E>(
  body: (broker: SubscriptionRef.SubscriptionRef<LinkState>) => Effect.Effect<A, E, BridgeStatus | BridgeEvents | Outbox | RateBudget | ActiveEvents>,
  stateDirectory = tempDir("status"),
  statusOptions = options
) =>
  Effect.gen(function*() {
    const broker = yield* SubscriptionRef.make<LinkState>({ _tag: "connecting", target: "mqtt://127.0.0.1:1883" })
    return yield* body(broker).pipe(Effect.provide(statusModelLayer(broker, stateDirectory, statusOptions)))
  })

const publish = (event: BridgeEvent) => BridgeEvents.use((bus) => bus.publish(event))

/** Polls the snapshot until `check` accepts it: the model follows the bus on its own fiber. */
const until = <A>(what: string, check: (s: StatusSnapshot) => A | undefined) =>
  Effect.gen(function*() {
    const status = yield* BridgeStatus
    for (let i = 0; i < 200; i++) {
      const snapshot = yield* status.snapshot
      const found = check(snapshot)
      if (found !== undefined) return found
      yield* Effect.yieldNow
    }
    return assert.fail(`the status never showed ${what}: ${JSON.stringify(yield* status.snapshot, null, 1)}`)
  })

const place = (key: string) => (s: StatusSnapshot): PlaceStatus => s.places.find((p) => p.key === key)!

const reading = (receivedAt: number, home: number, away: number): BridgeEvent =>
  ({ _tag: "Reading", place: "court-1", reading: { receivedAt, home, away, period: 2 }, stats: { ...emptyStats(), frames: home + away } })

describe("BridgeStatus: a serial scoreboard's badge", () => {
  it.effect("goes DISCONNECTED (with the reason) → NO DATA → LIVE → NO DATA as the port and its frames come and go", () =>
    withModel(() =>
      Effect.gen(function*() {
        const first = yield* until("court-1 not opened", (s) => place("court-1")(s).source.badge === "DISCONNECTED" ? s : undefined)
        assert.isFalse(first.healthy)

        yield* publish({ _tag: "Link", place: "court-1", state: { _tag: "disconnected", target: "/dev/ttyCOURT1", reason: "cannot open /dev/ttyCOURT1: No such file or directory", retryInMs: 1000 } })
        const down = yield* until("the open failure", (s) => place("court-1")(s).source.detail.includes("No such file") ? s : undefined)
        assert.strictEqual(place("court-1")(down).source.badge, "DISCONNECTED")
        assert.isTrue(down.reasons.some((r) => r.startsWith("court-1: DISCONNECTED: /dev/ttyCOURT1: cannot open") && r.includes("No such file")), down.reasons.join("\n"))

        yield* publish({ _tag: "Link", place: "court-1", state: connected })
        const waiting = yield* until("the port open", (s) => place("court-1")(s).source.badge === "NO DATA" ? place("court-1")(s) : undefined)
        assert.include(waiting.source.detail, "waiting for the first valid frame")

        const now = yield* Clock.currentTimeMillis
        yield* publish(reading(now, 3, 2))
        const live = yield* until("LIVE", (s) => place("court-1")(s).source.badge === "LIVE" ? place("court-1")(s) : undefined)
        assert.strictEqual(live.lastReadingText, "3–2 · period 2")
        assert.strictEqual(live.lastReadingAt, now)

        // Silence past the threshold: the console is off or the cable is out.
        yield* TestClock.adjust("11 seconds")
        const silent = yield* until("NO DATA after silence", (s) => place("court-1")(s).source.badge === "NO DATA" ? place("court-1")(s) : undefined)
        assert.match(silent.source.detail, /no bytes for 11 s/)

        // Bytes again, but none decode: wrong protocol or line settings.
        yield* publish({ _tag: "Activity", place: "court-1", receivedAt: yield* Clock.currentTimeMillis, bytes: 4000, stats: { ...emptyStats(), frames: 5, badFrames: 7 } })
        const garbage = yield* until("undecodable bytes", (s) => place("court-1")(s).source.detail.includes("nothing decodes") ? place("court-1")(s) : undefined)
        assert.strictEqual(garbage.source.badge, "NO DATA")
        assert.include(garbage.source.detail, "7 bad frames")
        assert.strictEqual(garbage.decoder.badFrames, 7)
      })))
})

describe("BridgeStatus: a console that connects to the bridge over TCP", () => {
  const listenOptions: StatusOptions = {
    places: [{ key: "court-3", sport: "unihockey", scoreboard: { link: "tcp", target: "listen 0.0.0.0:4001" }, buttonSources: [] }],
    buttons: [],
    mqtt: false,
    thresholds: { noDataAfterMs: 10_000, stuckAfterMs: 60_000 }
  }
  const link = (state: LinkState): BridgeEvent => ({ _tag: "Link", place: "court-3", state })
  const court3 = place("court-3")

  it.effect("waits for the console (DISCONNECTED, what to check), is LIVE with its frames, and says it waits again after it left", () =>
    withModel(() =>
      Effect.gen(function*() {
        yield* publish(link({ _tag: "listening", target: "0.0.0.0:4001" }))
        const waiting = yield* until("waiting for the console", (s) => court3(s).source.detail.includes("waiting for") ? court3(s) : undefined)
        assert.strictEqual(waiting.source.badge, "DISCONNECTED")
        assert.strictEqual(waiting.source.detail, "waiting for the console to connect to 0.0.0.0:4001: check the console's network output (this machine's address and port)")
        assert.strictEqual(waiting.source.link, "tcp")

        yield* publish(link({ _tag: "connected", target: "10.0.0.5:50123 → 0.0.0.0:4001" }))
        const open = yield* until("connected", (s) => court3(s).source.badge === "NO DATA" ? court3(s) : undefined)
        assert.strictEqual(open.source.detail, "connected, waiting for the first valid frame")
        yield* publish({ _tag: "Reading", place: "court-3", reading: { receivedAt: yield* Clock.currentTimeMillis, home: 1, away: 0, period: 1 }, stats: { ...emptyStats(), frames: 1 } })
        yield* until("LIVE", (s) => court3(s).source.badge === "LIVE" ? true : undefined)
        const row = yield* until("the link row", (s) => s.links.find((l) => l.name === "scoreboard:court-3"))
        assert.deepInclude(row, { up: true, target: "10.0.0.5:50123 → 0.0.0.0:4001", connects: 1 })

        yield* publish(link({ _tag: "disconnected", target: "0.0.0.0:4001", reason: "console 10.0.0.5:50123 closed the connection", retryInMs: 0 }))
        yield* publish(link({ _tag: "listening", target: "0.0.0.0:4001" }))
        yield* TestClock.adjust("3 seconds")
        const left = yield* until("the console gone", (s) => court3(s).source.badge === "DISCONNECTED" ? court3(s) : undefined)
        assert.strictEqual(left.source.detail, "console 10.0.0.5:50123 closed the connection (down for 3 s; waiting for the console to connect to 0.0.0.0:4001)")
        const metrics = yield* (yield* BridgeStatus).metrics
        assert.include(metrics, 'scorebridge_link_up{link="scoreboard:court-3"} 0')
        assert.include(metrics, 'scorebridge_link_drops_total{link="scoreboard:court-3"} 1')
      }), tempDir("status"), listenOptions))
})

describe("BridgeStatus: MQTT scoreboards follow the broker link", () => {
  it.effect("DISCONNECTED while the broker is down, NO DATA until the first message, then LIVE even when quiet", () =>
    withModel((broker) =>
      Effect.gen(function*() {
        yield* SubscriptionRef.set(broker, { _tag: "disconnected", target: "mqtt://127.0.0.1:1883", reason: "connect ECONNREFUSED", retryInMs: 1000 })
        const down = yield* until("broker down", (s) => place("court-2")(s).source.detail.includes("ECONNREFUSED") ? place("court-2")(s) : undefined)
        assert.strictEqual(down.source.badge, "DISCONNECTED")
        yield* SubscriptionRef.set(broker, { _tag: "connected", target: "mqtt://127.0.0.1:1883" })
        const idle = yield* until("broker up", (s) => place("court-2")(s).source.badge === "NO DATA" ? place("court-2")(s) : undefined)
        assert.include(idle.source.detail, "no message yet on its topics")
        assert.isTrue((yield* (yield* BridgeStatus).snapshot).reasons.includes("court-2: NO DATA: venue/court-2/score: no message yet on its topics"))
        yield* publish({ _tag: "Reading", place: "court-2", reading: { receivedAt: yield* Clock.currentTimeMillis, sets: [[25, 23], [4, 6]] }, stats: { ...emptyStats(), frames: 1 } })
        yield* until("court-2 LIVE", (s) => place("court-2")(s).source.badge === "LIVE" ? true : undefined)
        // A scoring app publishes on change only: a quiet minute is not a fault.
        yield* TestClock.adjust("60 seconds")
        const quiet = yield* until("still LIVE", (s) => place("court-2")(s))
        assert.strictEqual(quiet.source.badge, "LIVE")
        assert.strictEqual(quiet.lastReadingText, "sets 25-23 4-6")
        const links = yield* until("mqtt link row", (s) => s.links.find((l) => l.name === "mqtt"))
        assert.deepInclude(links, { up: true, connects: 1 })
      })))
})

describe("BridgeStatus: entries, clicks and the service's answers", () => {
  it.effect("shows the last entry's answer, the last press, queue depth and counts them in /metrics", () =>
    withModel(() =>
      Effect.gen(function*() {
        const outbox = yield* wholeOutbox
        const t0 = yield* Clock.currentTimeMillis
        const item = yield* outbox.append({ place: "court-1", kind: "score", payload: { timeStamp: t0, left: 1, right: 0, period: 1 }, createdAt: t0 })
        yield* publish({ _tag: "Entry", place: "court-1", itemId: item.id, entry: { timeStamp: t0, left: 1, right: 0, period: 1 } })
        const queued = yield* until("the queued entry", (s) => place("court-1")(s).lastEntry?.answer.state === "queued" ? place("court-1")(s) : undefined)
        assert.strictEqual(queued.queue.score, 1)
        assert.strictEqual(queued.queue.oldestPendingAt, t0)

        yield* publish({ _tag: "Settled", place: "court-1", itemId: item.id, kind: "score", outcome: { _tag: "Retry", kind: "transient", error: "HTTP 503 from the service" } })
        const retrying = yield* until("retrying", (s) => place("court-1")(s).lastEntry?.answer.state === "retrying" ? place("court-1")(s) : undefined)
        assert.include(retrying.lastEntry!.answer.detail, "HTTP 503")
        assert.include(retrying.errors[0]!.text, "HTTP 503")

        yield* TestClock.adjust("1500 millis")
        yield* outbox.markDelivered(item.id, { eventKey: "ev-1", key: "k-1" })
        yield* publish({ _tag: "Settled", place: "court-1", itemId: item.id, kind: "score", outcome: { _tag: "Delivered", result: { eventKey: "ev-1", key: "k-1" } } })
        const delivered = yield* until("delivered", (s) => place("court-1")(s).lastEntry?.answer.state === "delivered" ? place("court-1")(s) : undefined)
        assert.strictEqual(delivered.queue.score, 0)

        yield* publish({ _tag: "Press", place: "court-1", press: { source: "remote", button: "1", gesture: "single", pressedAt: t0 + 1000 }, result: { _tag: "NoEvent" } })
        const pressed = yield* until("the press", (s) => place("court-1")(s).lastPress ?? undefined)
        assert.include(pressed.text, "no event is running")
        assert.isNull(pressed.answer)

        const metrics = yield* (yield* BridgeStatus).metrics
        assert.match(metrics, /^scorebridge_entries_queued_total\{place="court-1"\} 1$/m)
        assert.match(metrics, /^scorebridge_items_settled_total\{place="court-1",kind="score",outcome="delivered"\} 1$/m)
        assert.match(metrics, /^scorebridge_delivery_retries_total\{place="court-1",kind="score",reason="transient"\} 1$/m)
        assert.match(metrics, /^scorebridge_requests_total\{place="court-1",kind="score",outcome="transient"\} 1$/m)
        assert.match(metrics, /^scorebridge_presses_total\{place="court-1",gesture="single",result="no_event"\} 1$/m)
        // Captured at t0, accepted 1.5 s later.
        assert.match(metrics, /^scorebridge_delivery_latency_seconds_bucket\{place="court-1",kind="score",le="1"\} 0$/m)
        assert.match(metrics, /^scorebridge_delivery_latency_seconds_bucket\{place="court-1",kind="score",le="2"\} 1$/m)
        assert.match(metrics, /^scorebridge_delivery_latency_seconds_sum\{place="court-1",kind="score"\} 1\.5$/m)
      })))

  it.effect("an item pending past stuckAfter and a 401 suspension each fail health with a reason", () =>
    withModel(() =>
      Effect.gen(function*() {
        const outbox = yield* wholeOutbox
        const t0 = yield* Clock.currentTimeMillis
        const item = yield* outbox.append({ place: "court-2", kind: "click", payload: clickPayload(t0), createdAt: t0 })
        yield* outbox.reschedule(item.id, "HTTP 502 from the service", t0)
        yield* TestClock.adjust("61 seconds")
        const stuck = yield* until("stuck delivery", (s) => s.reasons.find((r) => r.includes("delivery stuck")))
        assert.strictEqual(stuck, `court-2: delivery stuck: click #${item.id} pending for 61 s (last error: HTTP 502 from the service)`)

        yield* (yield* RateBudget).suspend("the service rejected the token (401)")
        const snapshot = yield* until("401", (s) => s.token.suspended === null ? undefined : s)
        assert.isTrue(snapshot.reasons.includes("court-1: delivery paused: the service rejected the token (401)"))
        assert.isFalse(place("court-1")(snapshot).live)
        assert.match(yield* (yield* BridgeStatus).metrics, /^scorebridge_token_suspended 1$/m)
      })))
})

describe("BridgeStatus: recent errors", () => {
  it.effect("keep the latest 20, and a repeated problem counts up instead of filling the ring", () =>
    withModel(() =>
      Effect.gen(function*() {
        for (let n = 0; n < 25; n++) {
          yield* publish({ _tag: "Settled", place: "court-1", itemId: n, kind: "score", outcome: { _tag: "Dead", error: `HTTP 400: bad entry ${n}` } })
        }
        for (let n = 0; n < 3; n++) {
          yield* publish({ _tag: "Settled", place: "court-1", itemId: 100 + n, kind: "score", outcome: { _tag: "Warning", warning: "no event running" } })
        }
        const errors = yield* until("28 errors folded", (s) => place("court-1")(s).errors[0]?.times === 3 ? place("court-1")(s).errors : undefined)
        assert.strictEqual(errors.length, 20)
        assert.include(errors[0]!.text, "warning: no event running")
        assert.include(errors[1]!.text, "bad entry 24")
        assert.include(errors[19]!.text, "bad entry 6")
      })))
})

describe("BridgeStatus after a restart", () => {
  it.effect("shows the last entry the outbox kept, with the service's answer", () =>
    Effect.gen(function*() {
      const dir = tempDir("status")
      const entry = { timeStamp: 5_000, left: 61, right: 58, period: 4 }
      const id = yield* Effect.gen(function*() {
        const outbox = yield* wholeOutbox
        const item = yield* outbox.append({ place: "court-1", kind: "score", payload: entry, createdAt: 5_000 })
        yield* outbox.markDelivered(item.id, { eventKey: "ev-9", key: "k-9" })
        return item.id
      }).pipe(Effect.provide(Outbox.layer({ stateDirectory: dir })))
      const last = yield* withModel(() => until("the restored entry", (s) => place("court-1")(s).lastEntry ?? undefined), dir)
      assert.deepStrictEqual(last.entry, entry)
      assert.strictEqual(last.itemId, id)
      assert.strictEqual(last.answer.state, "delivered")
      assert.include(last.answer.detail, "k-9")
    }))
})
