import { constants } from "node:fs"
import { open, readdir, realpath, stat } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"

/**
 * Where the devices the page may name are listed. Only what udev puts there is offered or
 * opened: a path the page types (a root-only file, a FIFO) never is. The variables point tests at
 * directories of their own (links to ptys and other character devices).
 */
export interface DeviceDirectories {
  readonly serialById: string
  readonly inputById: string
  readonly inputByPath: string
  /** Where the `gpiochipN` devices are. */
  readonly dev: string
  readonly gpioLabels: string
}

export const deviceDirectories = (): DeviceDirectories => ({
  serialById: process.env["SCOREBRIDGE_SERIAL_BY_ID"] ?? "/dev/serial/by-id",
  inputById: process.env["SCOREBRIDGE_INPUT_BY_ID"] ?? "/dev/input/by-id",
  inputByPath: process.env["SCOREBRIDGE_INPUT_BY_PATH"] ?? "/dev/input/by-path",
  dev: process.env["SCOREBRIDGE_GPIO_DIR"] ?? "/dev",
  gpioLabels: "/sys/bus/gpio/devices"
})

export type DeviceKind = "serial" | "input" | "gpio"

const listedIn: Record<DeviceKind, string> = {
  serial: "a serial adapter of /dev/serial/by-id",
  input: "an input device of /dev/input/by-id or /dev/input/by-path",
  gpio: "a GPIO chip /dev/gpiochipN"
}

const directoriesOf = (directories: DeviceDirectories, kind: DeviceKind): ReadonlyArray<string> =>
  kind === "serial" ? [directories.serialById] : kind === "input" ? [directories.inputById, directories.inputByPath] : [directories.dev]

const namesIn = (directory: string) => Effect.promise(() => readdir(directory).catch(() => [] as Array<string>))

/** The paths of a kind present now, sorted; none when a directory is missing (udev removes an empty by-id). */
export const presentDevices = (directories: DeviceDirectories, kind: DeviceKind): Effect.Effect<ReadonlyArray<string>> =>
  Effect.map(
    Effect.forEach(directoriesOf(directories, kind), (directory) =>
      Effect.map(namesIn(directory), (names) =>
        names.filter((name) => kind !== "gpio" || /^gpiochip\d+$/u.test(name)).sort().map((name) => join(directory, name)))),
    (lists) => lists.flat()
  )

/** A GPIO chip as the config names it (`gpiochip0`) where the page's chips are listed; a path stays as it is. */
export const gpioChipPath = (directories: DeviceDirectories, chip: string): string => chip.startsWith("/") ? chip : join(directories.dev, chip)

/** A device the page named, checked: the listed path (kept in the config) and the character device behind it (opened). */
export interface PageDevice {
  readonly path: string
  readonly device: string
}

const refusal = (path: string, why: string) => `${path} ${why}`

/**
 * Opened O_NONBLOCK (never waits for a writer or a carrier) and checked on the open file itself,
 * so what passed is what was opened; then closed: the link opens the same device again.
 */
const openedIsCharacterDevice = (device: string) =>
  Effect.tryPromise(async () => {
    const handle = await open(device, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY)
    try {
      return (await handle.stat()).isCharacterDevice()
    } finally {
      await handle.close()
    }
  }).pipe(Effect.mapError((cause) => `cannot be opened (${(cause.cause as NodeJS.ErrnoException).code ?? "error"})`))

/**
 * The device behind a path the page names, if it is one the page may: listed in the kind's
 * directories, resolved (realpath) to a character device. Fails with the reason in words.
 */
export const pageDevice = (directories: DeviceDirectories, kind: DeviceKind, path: string): Effect.Effect<PageDevice, string> =>
  Effect.gen(function*() {
    const present = yield* presentDevices(directories, kind)
    if (!present.includes(path)) return yield* Effect.fail(refusal(path, `is not ${listedIn[kind]}: pick one from the list of devices present`))
    const device = yield* Effect.tryPromise(() => realpath(path)).pipe(Effect.mapError(() => refusal(path, "leads nowhere (unplugged?): plug it in, or pick another")))
    const isDevice = yield* Effect.tryPromise(() => stat(device)).pipe(Effect.map((stats) => stats.isCharacterDevice()), Effect.orElseSucceed(() => false))
    if (!isDevice) return yield* Effect.fail(refusal(path, `leads to ${device}, which is not a character device: only devices are opened`))
    const opened = yield* openedIsCharacterDevice(device).pipe(Effect.mapError((why) => refusal(path, why)))
    if (!opened) return yield* Effect.fail(refusal(path, `leads to ${device}, which is not a character device: only devices are opened`))
    return { path, device }
  })
