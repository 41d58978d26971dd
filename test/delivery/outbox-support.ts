import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import { Outbox } from "../../src/delivery/outbox.ts"

export const tempStateDirectory = (): string => fs.mkdtempSync(path.join(os.tmpdir(), "scorebridge-outbox-"))

/** Opens the outbox in `stateDirectory` for the duration of `body`, then closes it. */
export const withOutbox = <A, E>(
  stateDirectory: string,
  body: (outbox: Outbox["Service"]) => Effect.Effect<A, E>
) => Outbox.use(body).pipe(Effect.provide(Outbox.layer({ stateDirectory })))

export const runWithOutbox = <A, E>(stateDirectory: string, body: (outbox: Outbox["Service"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(withOutbox(stateDirectory, body))
