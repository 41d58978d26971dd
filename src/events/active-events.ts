import { Clock, Context, Effect, Layer } from "effect"

export interface KnownEvent {
  /** The event live on the place, or null when the service said none is running. */
  readonly eventKey: string | null
  /** When this was learned (ms). */
  readonly learnedAt: number
}

/**
 * What the bridge knows of each place's live event, learned for free from the
 * service's answers to place-score posts (and, for clicks, from explicit
 * look-ups). Score entries are stamped with it when captured, so a backlog is
 * sent to the event it belongs to rather than to whatever runs later.
 */
export class ActiveEvents extends Context.Service<ActiveEvents, {
  current(place: string): Effect.Effect<KnownEvent | undefined>
  learn(place: string, eventKey: string | null): Effect.Effect<void>
  readonly all: Effect.Effect<ReadonlyMap<string, KnownEvent>>
}>()("scorebridge/events/ActiveEvents") {
  static readonly layer = Layer.sync(ActiveEvents, () => {
    const known = new Map<string, KnownEvent>()
    return ActiveEvents.of({
      current: (place) => Effect.sync(() => known.get(place)),
      learn: (place, eventKey) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => void known.set(place, { eventKey, learnedAt: now }))),
      all: Effect.sync(() => new Map(known))
    })
  })
}
