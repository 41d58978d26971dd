import { Context, Deferred, Effect, Exit, Layer, Queue, type Redacted, Scope } from "effect"
import { ConfigError, loadConfig } from "../config/load.ts"
import { movedSecretWarnings } from "../config/moved-secrets.ts"
import type { Config } from "../config/schema.ts"
import type { SecretRef } from "../config/secret-ref.ts"
import { resolveSecret } from "../config/secrets.ts"
import { pinoLoggerLayer } from "../observability/logger.ts"
import { daemonLayer } from "./daemon-layer.ts"
import { OutboxHealth } from "../delivery/outbox.ts"
import type { OutboxWriteError } from "../delivery/outbox-errors.ts"
import { endOnDiskFailure } from "./disk-failure.ts"
import { RateBudget } from "../delivery/rate-budget.ts"
import { Scheduler } from "../delivery/scheduler.ts"
import { runWatchdog, SystemdNotify, type WatchedDaemon } from "./systemd-notify.ts"

/** A config that loaded and validated, with its token resolved: what one daemon generation runs on. */
export interface Prepared {
  readonly config: Config
  readonly token: Redacted.Redacted<string>
}

/** Everything short of starting: read, validate, resolve the token. Fails with the reason, never the token. */
export const prepare = (path: string) =>
  Effect.gen(function*() {
    const config = yield* loadConfig(path)
    // A secret that cannot be read is a config problem: named with the file, exit 78, nothing starts.
    const secret = (ref: SecretRef, what: string) =>
      resolveSecret(ref, what).pipe(
        Effect.mapError((error) => new ConfigError({ file: path, problems: [{ path: error.what, message: error.reason }] }))
      )
    const token = yield* secret(config.service.token, "service.token")
    if (config.mqtt?.password !== undefined) yield* secret(config.mqtt.password, "mqtt.password")
    return { config, token } satisfies Prepared
  })

/**
 * SIGHUPs as a queue. Node ends the process on a SIGHUP nobody listens to, so this is
 * installed before the daemon starts and stays until the run command ends.
 */
export const hangups = Effect.acquireRelease(
  Effect.gen(function*() {
    const queue = yield* Queue.sliding<void>(1)
    const listener = () => {
      Queue.offerUnsafe(queue, undefined)
    }
    process.on("SIGHUP", listener)
    return { queue, listener }
  }),
  ({ listener }) => Effect.sync(() => process.off("SIGHUP", listener))
).pipe(Effect.map(({ queue }) => queue as Queue.Dequeue<void>))

const generation = ({ config, token }: Prepared) =>
  daemonLayer(config, token).pipe(Layer.provide(pinoLoggerLayer(config.log.level)))

const placesLine = (config: Config) => `running: ${config.places.map((p) => p.key).join(", ")}`

/**
 * Runs the daemon for `initial` until interrupted, and on each SIGHUP re-reads `path`.
 * A config that does not load or resolve is logged and the running daemon is left alone.
 * A good one replaces the running daemon: the old one is released completely first (serial
 * ports closed, outbox closed) so the new one can open the same ports; queued entries live in
 * the durable outbox and carry over.
 */
export const serveWithReload = Effect.fn("serveWithReload")(function*(
  path: string,
  initial: Prepared,
  signals: Queue.Dequeue<void>
) {
  const notify = yield* SystemdNotify
  let current = initial
  let scope = yield* Scope.make()
  let watched: WatchedDaemon | undefined
  // Whatever generation runs when this ends (SIGTERM) is released before the process exits.
  yield* Effect.addFinalizer((exit) => Scope.close(scope, exit))
  yield* Effect.forkScoped(runWatchdog(() => watched))
  const diskFailed = yield* Deferred.make<OutboxWriteError>()

  const start = (prepared: Prepared) =>
    Effect.gen(function*() {
      watched = undefined
      scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(generation(prepared), scope)
      watched = { places: prepared.config.places.length, context: Context.pick(Scheduler, OutboxHealth, RateBudget)(context) }
      yield* Effect.forkIn(Effect.flatMap(Context.get(context, OutboxHealth).diskFailure, (e) => Deferred.succeed(diskFailed, e)), scope)
    })

  yield* start(current)
  yield* notify.send({ READY: "1", STATUS: placesLine(current.config) })

  while (true) {
    const failed = yield* Effect.raceFirst(Effect.as(Queue.take(signals), undefined), Deferred.await(diskFailed))
    if (failed !== undefined) return yield* endOnDiskFailure(failed)
    yield* notify.send({ RELOADING: "1", STATUS: `reloading ${path}` })
    yield* Effect.logInfo(`SIGHUP: reloading ${path}`)
    const next = yield* prepare(path).pipe(Effect.result)
    if (next._tag === "Failure") {
      yield* Effect.logError(`reload of ${path} failed, still running the previous config:\n${next.failure.message}`)
      yield* notify.send({ READY: "1", STATUS: `reload failed, previous config kept: ${next.failure.message}` })
      continue
    }
    for (const warning of movedSecretWarnings(current, next.success)) yield* Effect.logWarning(warning)
    watched = undefined
    yield* Scope.close(scope, Exit.void)
    const started = yield* start(next.success).pipe(Effect.result)
    if (started._tag === "Failure") {
      // E.g. a new stateDirectory that cannot be opened: go back to what worked.
      yield* Effect.logError(`reloaded config could not start, going back to the previous one: ${String(started.failure)}`)
      watched = undefined
      yield* Scope.close(scope, Exit.void)
      yield* start(current)
    } else {
      current = next.success
      yield* Effect.logInfo(`reloaded ${path}: ${current.config.places.length} place(s)`)
    }
    yield* notify.send({ READY: "1", STATUS: placesLine(current.config) })
  }
})
