import { Effect, Result } from "effect"
import type { CheckOutcome } from "../../commissioning/check-outcome.ts"
import { doctorChecks, localChecks } from "../../commissioning/doctor.ts"
import { ok, type SetupRoute } from "../setup-route.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { readSetupSecret } from "../setup-token.ts"
import type { Config } from "../../config/schema.ts"
import { tokenHeldBack } from "../config/token-store.ts"
import { currentConfig } from "./current-config.ts"

/** One check as the page shows it: a light, what was checked, what was found, what to do. */
export interface SetupCheck {
  readonly status: "ok" | "warn" | "fail"
  readonly title: string
  readonly detail?: string
  readonly fix?: string
  /** Doctor did not make this check (no broker configured, the clock not compared): shown as a warning, marked so the page may show it quieter. */
  readonly skipped?: true
}

/** `GET /api/checks`'s answer. */
export interface ChecksAnswer { readonly checks: ReadonlyArray<SetupCheck> }

/**
 * Doctor's line `serial /dev/ttyUSB0: readable and writable` as title and detail. A check doctor
 * skipped (the clock not compared, places not looked up without companyKey) is a warning on the
 * page: something was not checked, and the line says why.
 */
export const setupCheck = (outcome: CheckOutcome): SetupCheck => {
  const at = outcome.line.indexOf(": ")
  const title = at === -1 ? outcome.line : outcome.line.slice(0, at)
  const detail = at === -1 ? undefined : outcome.line.slice(at + 2)
  return {
    status: outcome.status === "skip" ? "warn" : outcome.status,
    title,
    ...(detail === undefined ? {} : { detail }),
    ...(outcome.advice === undefined ? {} : { fix: outcome.advice }),
    ...(outcome.status === "skip" ? { skipped: true } : {})
  }
}

const run = (groups: ReadonlyArray<Effect.Effect<ReadonlyArray<CheckOutcome>>>) =>
  Effect.map(Effect.forEach(groups, (group) => group), (outcomes) => outcomes.flat().map(setupCheck))

/**
 * The page's stored token is sent only to the service it was entered for: a config edited by hand
 * to point elsewhere gets no token from the checks until it is entered again.
 */
const tokenForElsewhere = (environment: SetupEnvironment, config: Config): Effect.Effect<SetupCheck | undefined> =>
  Effect.promise(() => tokenHeldBack(environment, config.service)).pipe(Effect.map((detail) =>
    detail === undefined ? undefined : {
      status: "fail",
      title: "token",
      detail,
      fix: "enter the organization's API token again on this page, for the new service address"
    } satisfies SetupCheck
  ))

/**
 * Doctor's checks on the config as it is on disk and the stored token. A config that does not
 * load stops there (nothing else can be read from it); without a token the checks that need none
 * still run.
 */
export const checksRoute = (environment: SetupEnvironment): SetupRoute => ({
  method: "GET",
  path: "/api/checks",
  handle: () =>
    Effect.gen(function*() {
      const loaded = yield* currentConfig(environment)
      if (Result.isFailure(loaded)) {
        const fix = "fix the config: save a court from this page, or correct the lines named above by hand"
        return ok({ checks: [{ status: "fail", title: `config ${environment.configPath}`, detail: loaded.failure, fix }] } satisfies ChecksAnswer)
      }
      const { config } = loaded.success
      const configCheck: SetupCheck = { status: "ok", title: `config ${environment.configPath}`, detail: "valid" }
      const elsewhere = yield* tokenForElsewhere(environment, config)
      if (elsewhere !== undefined) return ok({ checks: [configCheck, elsewhere, ...(yield* run(localChecks(config)))] } satisfies ChecksAnswer)
      const token = yield* Effect.result(readSetupSecret(environment, config.service.token, "service.token"))
      if (Result.isFailure(token)) {
        const tokenCheck: SetupCheck = {
          status: "fail",
          title: "token",
          detail: token.failure.reason,
          fix: "enter the organization's API token on this page (it is stored in the credentials file, never shown again)"
        }
        return ok({ checks: [configCheck, tokenCheck, ...(yield* run(localChecks(config)))] } satisfies ChecksAnswer)
      }
      return ok({ checks: [configCheck, ...(yield* run(doctorChecks(config, token.success)))] } satisfies ChecksAnswer)
    })
})
