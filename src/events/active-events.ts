import { Clock, Context, Effect, Layer } from "effect"

export interface KnownEvent {
  /** The event live on the place, or null when the service said none is running. */
  readonly eventKey: string | null
  /** When this was learned (ms). */
  readonly learnedAt: number
  /** Team names of that event, once read (for overlays). */
  readonly homeTeam?: string
  readonly awayTeam?: string
}

/**
 * A "no event" answer younger than this is trusted: a press or an auto-highlight makes no request.
 * Older, the click is queued and the event looked up when it is sent — a stale "no event" must
 * never swallow the first highlight of a match.
 */
const noEventTrustedMs = 60_000

/** Whether the service said, recently enough to be trusted, that no event runs on the place. */
export const knownNoEvent = (known: KnownEvent | undefined, now: number): boolean =>
  known !== undefined && known.eventKey === null && now - known.learnedAt < noEventTrustedMs

/**
 * What the bridge knows of each place's live event, learned for free from the
 * service's answers to place-score posts and, for places with buttons, from
 * look-ups made in otherwise idle rate slots. Score entries and clicks are
 * stamped with it when captured, so a backlog is sent to the event it belongs
 * to rather than to whatever runs later.
 */
export class ActiveEvents extends Context.Service<ActiveEvents, {
  current(place: string): Effect.Effect<KnownEvent | undefined>
  learn(place: string, eventKey: string | null): Effect.Effect<void>
  learnTeams(place: string, eventKey: string, teams: { readonly homeTeam?: string; readonly awayTeam?: string }): Effect.Effect<void>
  readonly all: Effect.Effect<ReadonlyMap<string, KnownEvent>>
}>()("scorebridge/events/ActiveEvents") {
  static readonly layer = Layer.sync(ActiveEvents, () => {
    const known = new Map<string, KnownEvent>()
    return ActiveEvents.of({
      current: (place) => Effect.sync(() => known.get(place)),
      learn: (place, eventKey) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() => {
            const before = known.get(place)
            // Team names stay valid as long as the event does.
            const teams = before?.eventKey === eventKey ? { homeTeam: before.homeTeam, awayTeam: before.awayTeam } : {}
            known.set(place, { eventKey, learnedAt: now, ...definedOnly(teams) })
          })),
      learnTeams: (place, eventKey, teams) =>
        Effect.sync(() => {
          const before = known.get(place)
          if (before?.eventKey === eventKey) known.set(place, { ...before, ...definedOnly(teams) })
        }),
      all: Effect.sync(() => new Map(known))
    })
  })
}

const definedOnly = (teams: { readonly homeTeam?: string | undefined; readonly awayTeam?: string | undefined }) => ({
  ...(teams.homeTeam === undefined ? {} : { homeTeam: teams.homeTeam }),
  ...(teams.awayTeam === undefined ? {} : { awayTeam: teams.awayTeam })
})
