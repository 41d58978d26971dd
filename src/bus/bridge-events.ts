import { Context, Effect, Layer, PubSub, type Scope, Stream } from "effect"
import type { ButtonEvent } from "../domain/button.ts"
import type { Reading } from "../domain/reading.ts"
import type { PressResult } from "../domain/press-result.ts"
import type { LinkState } from "../domain/received.ts"
import type { ScoreEntry } from "../domain/score-entry.ts"
import type { DecoderStats } from "../../adapters/decoder.ts"
import type { ItemKind } from "../domain/item-kinds.ts"
import type { Outcome } from "../domain/outcome.ts"
import type { ClipSettled } from "../domain/follow-up.ts"
import type { Finish } from "../domain/race.ts"

/** What happens at a place, as the demo, the status page and metrics see it. */
export type BridgeEvent =
  | { readonly _tag: "Link"; readonly place: string; readonly state: LinkState }
  | { readonly _tag: "Reading"; readonly place: string; readonly reading: Reading; readonly stats: DecoderStats }
  /**
   * Bytes reached a place's decoder, whether or not they decoded: at most one
   * per second per place, so "bytes but nothing valid" is visible cheaply.
   */
  | { readonly _tag: "Activity"; readonly place: string; readonly receivedAt: number; readonly bytes: number; readonly stats: DecoderStats }
  | { readonly _tag: "Entry"; readonly place: string; readonly itemId: number; readonly entry: ScoreEntry }
  | { readonly _tag: "Settled"; readonly place: string; readonly itemId: number; readonly kind: ItemKind; readonly outcome: Outcome }
  | { readonly _tag: "Press"; readonly place: string; readonly press: ButtonEvent; readonly result: PressResult }
  | { readonly _tag: "ButtonLink"; readonly source: string; readonly state: LinkState }
  /** A followed click's outcome is known: its clip exists, or will not, or the moment is gone. */
  | ({ readonly _tag: "ClipSettled" } & ClipSettled)
  /**
   * A swimmer finished (the race tracker settled a lane's place and time), whether or not a rule
   * made a click of it; `clickItemId` is the click's outbox item when one was queued.
   */
  | { readonly _tag: "Finish"; readonly place: string; readonly finish: Finish; readonly clickItemId?: number }

/**
 * A bounded fan-out of bridge events. Sliding: a slow observer loses old
 * events rather than slowing delivery or growing memory.
 */
export class BridgeEvents extends Context.Service<BridgeEvents, {
  publish(event: BridgeEvent): Effect.Effect<void>
  readonly stream: Stream.Stream<BridgeEvent>
  /**
   * A stream whose subscription is already open when this returns: an observer
   * started in a layer sees every event published after it, none lost to the
   * race between forking its reader and the first publish.
   */
  readonly subscribe: Effect.Effect<Stream.Stream<BridgeEvent>, never, Scope.Scope>
}>()("scorebridge/bus/BridgeEvents") {
  static readonly layer = Layer.effect(BridgeEvents, Effect.gen(function*() {
    const hub = yield* PubSub.sliding<BridgeEvent>(1024)
    return BridgeEvents.of({
      publish: (event) => PubSub.publish(hub, event).pipe(Effect.asVoid),
      stream: Stream.fromPubSub(hub),
      subscribe: Effect.map(PubSub.subscribe(hub), Stream.fromSubscription)
    })
  }))
}
