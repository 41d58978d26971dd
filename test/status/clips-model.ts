import { Effect, Layer, Redacted, Stream } from "effect"
import type { ClipDetail, ClipOutcome } from "../../src/domain/follow-up.ts"
import { Outbox } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import { RateBudget } from "../../src/delivery/rate-budget.ts"
import type { LinkState } from "../../src/domain/received.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { ServiceClient } from "../../src/service/client.ts"
import { BridgeEvents } from "../../src/bus/bridge-events.ts"
import { BridgeStatus, type StatusOptions } from "../../src/status/status-model.ts"
import { MqttConnection } from "../../src/transport/mqtt.ts"
import { clickPayload } from "../support/outbox-payloads.ts"

/**
 * The status model on real parts for the clip outcome tests: the outbox on disk with follow-ups
 * (first read `firstReadAfterMs` after a click is accepted), bus, rate budget, active events; no
 * broker, no service behind the client.
 */
export const clipsModelLayer = (stateDirectory: string, options: StatusOptions, firstReadAfterMs: number) =>
  BridgeStatus.layer(options).pipe(Layer.provideMerge(Layer.mergeAll(
    Outbox.layer({ stateDirectory, followUps: { firstReadAfterMs } }),
    RateBudget.layer({ requestsPerSecond: 2 }),
    ActiveEvents.layer,
    BridgeEvents.layer,
    ServiceClient.layer({ baseUrl: "http://127.0.0.1:9", token: Redacted.make("unused-token") }),
    Layer.succeed(MqttConnection, MqttConnection.of({
      subscribe: () => Stream.empty,
      publish: () => Effect.void,
      state: Effect.succeed<LinkState>({ _tag: "connecting", target: "unused" }),
      stateChanges: Stream.empty
    }))
  )))

/** A press at `pressedAt`, accepted now by the service with its moment: the outbox starts its follow-up. */
export const acceptedClick = (place: string, pressedAt: number, momentKey: string) =>
  Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    const item = yield* outbox.append({ place, kind: "click", payload: clickPayload(pressedAt), createdAt: pressedAt })
    yield* outbox.markDelivered(item.id, { eventKey: "ev-1", momentKey })
    return item.id
  })

/** What the clip follower does when it knows: settles the follow-up in the outbox and tells the bus. */
export const settleClick = (clickId: number, outcome: ClipOutcome, detail: ClipDetail) =>
  Effect.gen(function*() {
    const outbox = yield* wholeOutbox
    const followUp = (yield* outbox.followUpOf(clickId))!
    yield* outbox.settleFollowUp(clickId, outcome, detail, { read: true })
    yield* (yield* BridgeEvents).publish({
      _tag: "ClipSettled",
      place: followUp.place,
      clickItemId: clickId,
      momentKey: followUp.momentKey,
      outcome,
      detail,
      pressedAt: followUp.pressedAt,
      acceptedAt: followUp.acceptedAt
    })
  })
