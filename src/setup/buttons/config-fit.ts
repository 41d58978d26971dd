import { Result } from "effect"
import type { Button } from "../../config/buttons.ts"
import { type ButtonEntry, checkEntry } from "./button-entry.ts"
import type { PressFound } from "./button-press.ts"
import type { ConfiguredLinks } from "./configured-links.ts"

const shareTopic = (a: Button, b: Button) =>
  a.mqtt !== undefined && b.mqtt !== undefined && a.mqtt.topics.some((topic) => b.mqtt!.topics.includes(topic))

/** The config's entry reads the same device: a topic in common, the same port, input device or GPIO chip. */
const sameDevice = (a: Button, b: Button): boolean =>
  a.type === b.type && (
    shareTopic(a, b) ||
    (a.serial !== undefined && a.serial.path === b.serial?.path) ||
    (a.device !== undefined && a.device === b.device) ||
    (a.gpio !== undefined && a.gpio.chip === b.gpio?.chip)
  )

/**
 * A GPIO entry lists its lines: the line pressed joins them. An entry the page saves never names
 * a program: a `command` written into the config is left out, so saving it removes it.
 */
const withLine = (entry: ButtonEntry, button: string | undefined): ButtonEntry => {
  if (entry.gpio === undefined) return entry
  const { command: _program, ...gpio } = entry.gpio
  const line = Number(button)
  const lines = !Number.isInteger(line) || gpio.lines.includes(line) ? gpio.lines : [...gpio.lines, line]
  return { ...entry, gpio: { ...gpio, lines } }
}

const maxTries = 99

/** The proposed name, or the first `-2`, `-3`… the config does not use yet. */
const freeName = (name: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(name)) return name
  for (let n = 2; n <= maxTries; n++) {
    const candidate = `${name.slice(0, 60)}-${n}`
    if (!taken.has(candidate)) return candidate
  }
  return `${name.slice(0, 50)}-${Date.now().toString(36)}`
}

/**
 * The press against the config's buttons: a device the config already reads keeps its entry
 * as written (and its name, which the places' actions use); a new device gets a name no other
 * entry has. Fails with the config's problems when the proposal would not load.
 */
export const fitToConfig = (found: PressFound, configured: ConfiguredLinks["buttons"]): Result.Result<PressFound, ReadonlyArray<string>> => {
  const proposed = checkEntry(found.entry)
  if (Result.isFailure(proposed)) return Result.fail(proposed.failure)
  const known = configured.find(({ button }) => sameDevice(button, proposed.success))
  const entry = known !== undefined
    ? withLine(known.entry, found.button)
    : { ...found.entry, name: freeName(found.name, new Set(configured.map(({ button }) => button.name))) }
  return Result.map(checkEntry(entry), (button) => ({ ...found, name: button.name, entry, ...(known === undefined ? {} : { known: true }) }))
}
