import { readdir, readFile, realpath } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"

/** Where input devices and GPIO chips are; tests name temporary directories instead. */
export interface DeviceDirectories {
  readonly inputById: string
  readonly dev: string
  readonly gpioLabels: string
}

export const deviceDirectories = (): DeviceDirectories => ({
  inputById: process.env.SCOREBRIDGE_INPUT_BY_ID ?? "/dev/input/by-id",
  dev: process.env.SCOREBRIDGE_GPIO_DIR ?? "/dev",
  gpioLabels: "/sys/bus/gpio/devices"
})

const namesIn = (directory: string) => Effect.promise(() => readdir(directory).catch(() => [] as Array<string>))

const resolved = (path: string) => Effect.promise(() => realpath(path).catch(() => undefined))

const labelOf = (directories: DeviceDirectories, chip: string) =>
  Effect.promise(() => readFile(join(directories.gpioLabels, chip, "label"), "utf8").then((text) => text.trim(), () => undefined))

/**
 * The input devices a button can be (their stable by-id names; only the `-event-` ones carry
 * key events) and the GPIO chips present, for the page's lists. Nothing there is an empty list.
 */
export const listButtonDevices = Effect.fnUntraced(function*(directories: DeviceDirectories) {
  const inputNames = (yield* namesIn(directories.inputById)).filter((name) => name.includes("-event-")).sort()
  const inputs = yield* Effect.forEach(inputNames, (name) =>
    Effect.map(resolved(join(directories.inputById, name)), (device) => ({
      path: join(directories.inputById, name),
      ...(device === undefined ? {} : { device })
    })))
  const chipNames = (yield* namesIn(directories.dev)).filter((name) => /^gpiochip\d+$/u.test(name)).sort()
  const gpiochips = yield* Effect.forEach(chipNames, (chip) =>
    Effect.map(labelOf(directories, chip), (label) => ({ chip, path: join(directories.dev, chip), ...(label === undefined ? {} : { label }) })))
  return { inputs, gpiochips }
})
