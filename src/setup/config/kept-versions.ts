import { mkdir, open, readdir, rm } from "node:fs/promises"
import { basename, join } from "node:path"
import type { SetupEnvironment } from "../setup-environment.ts"
import type { FileAccess } from "./atomic-file.ts"

/** How many earlier versions of the config are kept: a day of set-up work, undone file by file. */
export const keptVersionCount = 20

/** `<configDir>/config.yaml.previous/`: beside the config, so a restore is a `cp`. */
export const keptDirectory = (environment: SetupEnvironment): string =>
  join(environment.configDirectory, `${basename(environment.configPath)}.previous`)

/** 2026-05-04T10-17-33.123Z: UTC, sorts by time, no `:` (which some tools take for a host). */
const stamp = (date: Date): string => date.toISOString().replace(/:/gu, "-")

const created = async (directory: string, base: string, text: string, access: FileAccess): Promise<string> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const path = join(directory, `${base}${attempt === 0 ? "" : `-${attempt}`}.yaml`)
    try {
      const handle = await open(path, "wx", access.mode)
      try {
        await handle.writeFile(text)
        await handle.sync()
      } finally {
        await handle.close()
      }
      return path
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
  }
  throw new Error(`${directory}: 100 kept versions stamped ${base}`)
}

const pruned = async (directory: string): Promise<void> => {
  const names = (await readdir(directory)).filter((name) => name.endsWith(".yaml")).sort()
  await Promise.all(names.slice(0, Math.max(0, names.length - keptVersionCount)).map((name) => rm(join(directory, name), { force: true })))
}

/**
 * Keeps the config's text as it was before a save, and only the last `keptVersionCount`.
 * Root-only directory: an old config is as private as the current one.
 */
export const keepVersion = async (environment: SetupEnvironment, text: string, access: FileAccess, now = new Date()): Promise<string> => {
  const directory = keptDirectory(environment)
  await mkdir(directory, { recursive: true, mode: 0o700 })
  const path = await created(directory, stamp(now), text, { mode: access.mode & 0o600 })
  await pruned(directory)
  return path
}
