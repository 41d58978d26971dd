import { Effect, Layer } from "effect"
import { awaitOutbox } from "../daemon/outbox-retry.ts"
import { hangups, prepare, serveWithReload } from "../daemon/reload.ts"
import { exitCleanlyOnSigterm } from "../daemon/stop-on-sigterm.ts"
import { SystemdNotify } from "../daemon/systemd-notify.ts"
import { pinoLoggerLayer } from "../observability/logger.ts"
import { exitConfigError } from "./daemon-arguments.ts"
import { printError } from "./printable.ts"

/** The daemon on the config at `path`, until SIGTERM: what `scorebridge run` does, however its command line was read. */
export const runDaemon = Effect.fn(function*(path: string) {
  const done = exitCleanlyOnSigterm()
  yield* Effect.gen(function*() {
    const signals = yield* hangups
    const prepared = yield* prepare(path).pipe(Effect.result)
    if (prepared._tag === "Failure") {
      // Nothing starts on a broken config; 78 tells systemd not to restart into the same error.
      yield* printError(prepared.failure.message)
      process.exitCode = exitConfigError
      return
    }
    const initial = prepared.success
    yield* Effect.andThen(awaitOutbox(initial.config.stateDirectory), serveWithReload(path, initial, signals)).pipe(
      Effect.provide(Layer.merge(SystemdNotify.layer, pinoLoggerLayer(initial.config.log.level)))
    )
  }).pipe(Effect.scoped, Effect.ensuring(done))
})
