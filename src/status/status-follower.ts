import { Clock, Effect, Option, Stream } from "effect"
import type { OutboxItem } from "../delivery/outbox.ts"
import { OutboxItems } from "../delivery/outbox.ts"
import type { LinkState } from "../domain/received.ts"
import type { BridgeEvent } from "../bus/bridge-events.ts"
import { linkChange, type LinkRecords } from "./link-records.ts"
import type { LinkRecord, PlaceTracker } from "./place-tracker.ts"
import type { makeStatusMetrics } from "./status-metrics.ts"

/** What the status model keeps up to date from the bridge's events. */
export interface StatusState {
  readonly trackers: ReadonlyMap<string, PlaceTracker>
  readonly links: LinkRecords
  readonly metrics: ReturnType<typeof makeStatusMetrics>
}

/** The link's next record; a link that came up or went down is counted under `name`. */
const followLink = (state: StatusState, name: string, before: LinkRecord | undefined, link: LinkState, at: number) => {
  const { after, upNow } = linkChange(before, link, at)
  return { after, count: upNow === undefined ? Effect.void : state.metrics.linkChanged(name, upNow) }
}

/** A delivered item's time from capture to the service's acceptance. */
const latencyOf = Effect.fnUntraced(function*(state: StatusState, event: Extract<BridgeEvent, { _tag: "Settled" }>, at: number) {
  if (event.outcome._tag !== "Delivered") return
  const outbox = yield* OutboxItems
  const item = yield* outbox.get(event.itemId).pipe(Effect.orElseSucceed(() => Option.none<OutboxItem>()))
  if (Option.isSome(item)) yield* state.metrics.delivered(event.place, event.kind, (at - item.value.createdAt) / 1000)
})

/** One bridge event into the metrics, the link records and its place's tracker. */
export const applyEvent = Effect.fnUntraced(function*(state: StatusState, event: BridgeEvent) {
  const at = yield* Clock.currentTimeMillis
  yield* state.metrics.observe(event)
  if (event._tag === "ButtonLink") {
    const { after, count } = followLink(state, `button:${event.source}`, state.links.buttons.get(event.source), event.state, at)
    state.links.buttons.set(event.source, after)
    return yield* count
  }
  const tracker = state.trackers.get(event.place)
  if (tracker === undefined) return
  if (event._tag === "Link") yield* followLink(state, `scoreboard:${event.place}`, tracker.link, event.state, at).count
  tracker.apply(event, at)
  if (event._tag === "Settled") yield* latencyOf(state, event, at)
})

/** The broker's link, which button sources and scoreboards over MQTT share. */
export const applyMqttState = (state: StatusState, link: LinkState) =>
  Effect.flatMap(Clock.currentTimeMillis, (at) => {
    const { after, count } = followLink(state, "mqtt", state.links.mqtt, link, at)
    state.links.mqtt = after
    return count
  })

/** Follows the bus (and the broker's link, when there is one) for the life of the scope. */
export const followStatus = (
  state: StatusState,
  events: Stream.Stream<BridgeEvent>,
  mqttStates: Stream.Stream<LinkState> | undefined
) =>
  Effect.gen(function*() {
    yield* Effect.forkScoped(Stream.runForEach(events, (event) => applyEvent(state, event)))
    if (mqttStates !== undefined) yield* Effect.forkScoped(Stream.runForEach(mqttStates, (link) => applyMqttState(state, link)))
  })
