import { Effect } from "effect"
import { ClipFollowUps, type Outbox, OutboxHealth, OutboxItems, PressIdentities } from "../../src/delivery/outbox.ts"

/**
 * The outbox's four services as one object: the file's own tests (and the harnesses that look
 * into a daemon's outbox) read it across its jobs, as one file. Product code asks for the service
 * of its job instead (OutboxItems, ClipFollowUps, PressIdentities, OutboxHealth).
 */
export type WholeOutbox =
  & OutboxItems["Service"]
  & ClipFollowUps["Service"]
  & PressIdentities["Service"]
  & OutboxHealth["Service"]

export const wholeOutbox: Effect.Effect<WholeOutbox, never, Outbox> = Effect.gen(function*() {
  return { ...(yield* OutboxItems), ...(yield* ClipFollowUps), ...(yield* PressIdentities), ...(yield* OutboxHealth) }
})

/** As `Outbox.use` was, before the outbox was split by job. */
export const useOutbox = <A, E, R>(body: (outbox: WholeOutbox) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Outbox> =>
  Effect.flatMap(wholeOutbox, body)
