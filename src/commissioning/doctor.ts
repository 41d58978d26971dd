import { Effect, type Redacted } from "effect"
import type { Config } from "../config/schema.ts"
import { brokerCheck } from "./broker-check.ts"
import type { CheckOutcome } from "./check-outcome.ts"
import { loopDelayCheck } from "./loop-delay-check.ts"
import { networkChecks } from "./network-check.ts"
import { checkSerialAccess } from "./serial-access.ts"
import { serviceChecks } from "./service-checks.ts"
import { checkStateDirectory } from "./state-directory-check.ts"

/** Every serial line the config names, labelled by who uses it ("place court-1 scoreboard", "button remote-1"). */
export const serialLines = (config: Config): ReadonlyArray<{ readonly label: string; readonly path: string }> => [
  ...config.places.flatMap((place) =>
    place.scoreboard?.serial === undefined ? [] : [{ label: `place ${place.key} scoreboard`, path: place.scoreboard.serial.path }]
  ),
  ...(config.buttons ?? []).flatMap((button) =>
    button.serial === undefined ? [] : [{ label: `button ${button.name}`, path: button.serial.path }]
  )
]

/**
 * The checks after the config loaded, in the order they are shown. Each
 * group is its own effect so the command can print lines as they come: the
 * service checks wait for the network and for the rate-limit gap.
 */
export const doctorChecks = (
  config: Config,
  token: Redacted.Redacted<string>
): ReadonlyArray<Effect.Effect<ReadonlyArray<CheckOutcome>>> => {
  // The daemon may be running on the same token: stay well inside its request budget.
  const gapMs = Math.max(1_000, 1_000 / config.service.requestsPerSecond)
  return [serviceChecks(config, token, gapMs), ...localChecks(config), Effect.map(loopDelayCheck(config.status.listen), (outcome) => [outcome])]
}

/** The checks that need no token: serial lines, network links, the broker, the state directory (the setup page runs them before a token is stored). */
export const localChecks = (config: Config): ReadonlyArray<Effect.Effect<ReadonlyArray<CheckOutcome>>> => [
  Effect.sync(() => serialLines(config).map(({ label, path }) => checkSerialAccess(label, path))),
  networkChecks(config),
  Effect.map(brokerCheck(config), (outcome) => [outcome]),
  Effect.sync(() => [checkStateDirectory(config.stateDirectory)])
]
