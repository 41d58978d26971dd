import { join } from "node:path"
import { Effect, type Redacted } from "effect"
import type { SecretRef } from "../config/secret-ref.ts"
import { resolveSecret, type SecretError } from "../config/secrets.ts"
import type { SetupEnvironment } from "./setup-environment.ts"

/**
 * The config's token as the setup server reads it. It runs as root outside the unit, where
 * systemd sets no $CREDENTIALS_DIRECTORY: a `credential: NAME` reference is the file the unit's
 * LoadCredential= names, `<config directory>/credentials/NAME`; env: and file: read as the daemon does.
 */
export const readSetupSecret = (environment: SetupEnvironment, ref: SecretRef, what: string): Effect.Effect<Redacted.Redacted<string>, SecretError> =>
  ref.credential === undefined
    ? resolveSecret(ref, what)
    : resolveSecret({ file: join(environment.credentialsDirectory, ref.credential) }, what)
