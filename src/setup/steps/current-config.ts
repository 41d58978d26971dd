import { Effect, Result } from "effect"
import { type LoadedConfig, readConfig } from "../../config/load.ts"
import type { Config } from "../../config/schema.ts"
import type { SetupEnvironment } from "../setup-environment.ts"

/**
 * The config file as it is now, read afresh for every step: the file is the one source of truth,
 * and a hand edit or another browser's save may have changed it since the page loaded.
 */
export const currentConfig = (environment: SetupEnvironment): Effect.Effect<Result.Result<LoadedConfig, string>> =>
  readConfig(environment.configPath).pipe(
    Effect.map(Result.succeed),
    Effect.catchTag("ConfigError", (error) => Effect.succeed(Result.fail(error.message)))
  )

/** The config when it loads, else undefined: for steps that only annotate (which place uses a port). */
export const configIfValid = (environment: SetupEnvironment): Effect.Effect<Config | undefined> =>
  Effect.map(currentConfig(environment), (loaded) => (Result.isSuccess(loaded) ? loaded.success.config : undefined))
