import { Context, Effect } from "effect"
import { type OutboxReadError, type OutboxWriteError, readingFrom } from "./outbox-errors.ts"
import type { OutboxStatements } from "./outbox-statements.ts"

/**
 * What tells a press already stored from a new one, kept with the items in the outbox: the identity
 * a device gave its last press per button slot (see PressIdentity), and the broker message each
 * item was made from (see `receivedAsOf`). Stored by the append that stores the item (AppendInput's
 * `pressIdentity`, `receivedAs`); one of the services `Outbox.layer` provides (outbox.ts).
 */
export class PressIdentities extends Context.Service<PressIdentities, {
  /** The identity of the last press stored for a button slot (see PressIdentity), if any. */
  pressIdentity(slot: string): Effect.Effect<string | undefined, OutboxReadError>
  /**
   * Whether an item created at or after `since` was made from this broker message; when it was,
   * returns once that item is on disk, so the redelivery can be acknowledged.
   */
  storedFrom(receivedAs: string, since: number): Effect.Effect<boolean, OutboxReadError | OutboxWriteError>
}>()("scorebridge/delivery/PressIdentities") {}

export const makePressIdentities = (sql: OutboxStatements, file: string, allOnDisk: Effect.Effect<void, OutboxWriteError>) => {
  const read = readingFrom(file)
  return PressIdentities.of({
    pressIdentity: (slot: string) =>
      read(() => {
        const identity = sql.identityOf.get({ slot })?.["identity"]
        return typeof identity === "string" ? identity : undefined
      }),
    storedFrom: Effect.fn("PressIdentities.storedFrom")(function*(receivedAs: string, since: number) {
      const stored = yield* read(() => sql.storedFrom.get({ receivedAs, since }) !== undefined)
      // Found, it may still be on its way to the disk: the redelivery is acknowledged after that.
      if (stored) yield* allOnDisk
      return stored
    })
  })
}
