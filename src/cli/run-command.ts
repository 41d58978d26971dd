import { Console, Effect, Layer } from "effect"
import { Command } from "effect/cli"
import { loadConfig } from "../config/load.ts"
import { resolveSecret } from "../config/secrets.ts"
import { daemonLayer } from "../daemon/daemon-layer.ts"
import { pinoLoggerLayer } from "../observability/logger.ts"
import { configFlag, exitConfigError } from "./config-flag.ts"

export const runCommand = Command.make(
  "run",
  { config: configFlag },
  Effect.fn(function*({ config: path }) {
    const prepared = yield* Effect.gen(function*() {
      const config = yield* loadConfig(path)
      const token = yield* resolveSecret(config.service.token, "service.token")
      return { config, token }
    }).pipe(Effect.result)
    if (prepared._tag === "Failure") {
      // Nothing starts on a broken config; 78 tells systemd not to restart into the same error.
      yield* Console.error(prepared.failure.message)
      process.exitCode = exitConfigError
      return
    }
    const { config, token } = prepared.success
    yield* Layer.launch(daemonLayer(config, token).pipe(Layer.provide(pinoLoggerLayer(config.log.level))))
  })
).pipe(Command.withDescription("Run the bridge daemon (what the systemd service starts)"))
