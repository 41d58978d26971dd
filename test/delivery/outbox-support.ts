import { Effect } from "effect"
import { Outbox } from "../../src/delivery/outbox.ts"
import { useOutbox, type WholeOutbox } from "../support/whole-outbox.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/** A state directory for an outbox of its own. */
export const tempStateDirectory = (): string => tempDir("outbox")

/** Opens the outbox in `stateDirectory` for the duration of `body`, then closes it. */
export const withOutbox = <A, E>(
  stateDirectory: string,
  body: (outbox: WholeOutbox) => Effect.Effect<A, E>
) => useOutbox(body).pipe(Effect.provide(Outbox.layer({ stateDirectory })))

export const runWithOutbox = <A, E>(stateDirectory: string, body: (outbox: WholeOutbox) => Effect.Effect<A, E>) =>
  Effect.runPromise(withOutbox(stateDirectory, body))
