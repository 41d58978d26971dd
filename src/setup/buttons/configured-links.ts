import { readFile } from "node:fs/promises"
import { Effect, Result, Schema } from "effect"
import { parse } from "yaml"
import type { Button } from "../../config/buttons.ts"
import { formatPath, issueProblems } from "../../config/problems.ts"
import { Config } from "../../config/schema.ts"
import { type ButtonEntry, checkEntry } from "./button-entry.ts"

export type MqttBlock = NonNullable<Config["mqtt"]>

/**
 * What a capture needs from the config file, read part by part: a config that does not load as a
 * whole yet (a court half set up) still names its broker and the buttons it has.
 */
export interface ConfiguredLinks {
  readonly mqtt: Result.Result<MqttBlock, string> | undefined
  /** Each `buttons:` entry as written, with what it decodes to (entries that do not decode are left out). */
  readonly buttons: ReadonlyArray<{ readonly entry: ButtonEntry; readonly button: Button }>
  /** Serial ports the daemon reads, with who reads them: "place court-2", "button source arduino". */
  readonly serialPorts: ReadonlyArray<{ readonly path: string; readonly by: string }>
}

const MqttOnly = Schema.Struct({ mqtt: Config.fields.mqtt })

const mqttOf = (raw: Record<string, unknown>): ConfiguredLinks["mqtt"] => {
  if (raw.mqtt === undefined) return undefined
  const decoded = Schema.decodeUnknownResult(MqttOnly)({ mqtt: raw.mqtt }, { errors: "all" })
  if (Result.isFailure(decoded)) {
    const problems = issueProblems(decoded.failure.issue).map((p) => `${formatPath(p.path)}: ${p.message}`)
    return Result.fail(`the config's mqtt: block does not load (${problems.join("; ")})`)
  }
  return decoded.success.mqtt === undefined ? undefined : Result.succeed(decoded.success.mqtt)
}

const listOf = (value: unknown): ReadonlyArray<Record<string, any>> =>
  Array.isArray(value) ? value.filter((item): item is Record<string, any> => typeof item === "object" && item !== null) : []

const linksOf = (raw: Record<string, unknown>): ConfiguredLinks => {
  const buttons = listOf(raw.buttons).flatMap((entry) => {
    const checked = checkEntry(entry as ButtonEntry)
    return Result.isSuccess(checked) ? [{ entry: entry as ButtonEntry, button: checked.success }] : []
  })
  const serialPorts = [
    ...listOf(raw.places).flatMap((place) => {
      const path: unknown = place.scoreboard?.serial?.path
      return typeof path === "string" ? [{ path, by: `place ${String(place.key)}` }] : []
    }),
    ...buttons.flatMap(({ button }) => button.serial === undefined ? [] : [{ path: button.serial.path, by: `button source ${button.name}` }])
  ]
  return { mqtt: mqttOf(raw), buttons, serialPorts }
}

const none: ConfiguredLinks = { mqtt: undefined, buttons: [], serialPorts: [] }

/** Never fails: a file that is missing or not YAML names nothing. */
export const readConfiguredLinks = (configPath: string): Effect.Effect<ConfiguredLinks> =>
  Effect.tryPromise(async (): Promise<unknown> => parse(await readFile(configPath, "utf8"))).pipe(
    Effect.map((raw) => typeof raw === "object" && raw !== null ? linksOf(raw as Record<string, unknown>) : none),
    Effect.orElseSucceed(() => none)
  )
