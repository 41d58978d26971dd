import { readFile, realpath } from "node:fs/promises"
import { basename, join } from "node:path"
import { Effect } from "effect"
import { type DeviceDirectories, presentDevices } from "../steps/page-devices.ts"

const resolved = (path: string) => Effect.promise(() => realpath(path).catch(() => undefined))

const labelOf = (directories: DeviceDirectories, chip: string) =>
  Effect.promise(() => readFile(join(directories.gpioLabels, chip, "label"), "utf8").then((text) => text.trim(), () => undefined))

/**
 * The input devices a button can be (their stable by-id and by-path names; only the `-event-`
 * ones carry key events) and the GPIO chips present, for the page's lists: the only devices a
 * capture opens. Nothing there is an empty list.
 */
export const listButtonDevices = Effect.fnUntraced(function*(directories: DeviceDirectories) {
  const inputPaths = (yield* presentDevices(directories, "input")).filter((path) => basename(path).includes("-event-"))
  const inputs = yield* Effect.forEach(inputPaths, (path) =>
    Effect.map(resolved(path), (device) => ({ path, ...(device === undefined ? {} : { device }) })))
  const gpiochips = yield* Effect.forEach(yield* presentDevices(directories, "gpio"), (path) => {
    const chip = basename(path)
    return Effect.map(labelOf(directories, chip), (label) => ({ chip, path, ...(label === undefined ? {} : { label }) }))
  })
  return { inputs, gpiochips }
})
