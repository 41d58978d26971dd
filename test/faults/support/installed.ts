import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, rmSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import type { Wrap } from "../../../scripts/support/fault-daemon.ts"
import { tempDir } from "../../../scripts/support/temp-dir.ts"

const repo = join(import.meta.dirname, "../../..")

export interface Installed {
  /** A scratch directory of its own, removed with it. */
  readonly dir: string
  /** For `startWorld`: runs the installed bin/scorebridge instead, with `env` added. */
  readonly wrap: (env?: Readonly<Record<string, string>>) => Wrap
  readonly remove: () => void
}

/**
 * The daemon as systemd runs it, built from the sources under test: `bin/scorebridge run` on
 * the bundle, so with the flags and malloc settings that script gives it (--jitless, a 1 MB
 * young generation, MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_). The sources themselves cannot run
 * that way (--jitless turns off WebAssembly, which Node's type stripper needs). Run from them,
 * the daemon starts at twice the RSS, and the JIT and a young generation sized by load make it
 * grow for several floods: a memory check measured V8 warming up there, not the bridge.
 *
 * A copy laid out like /opt/scorebridge in a temporary directory (bin/, a fresh dist/,
 * node_modules linked back), so bin/scorebridge's own logic picks what runs and the work tree's
 * dist/ is left alone.
 */
export const installedCopy = (): Installed => {
  const root = tempDir("installed")
  const remove = () => rmSync(root, { recursive: true, force: true })
  try {
    mkdirSync(join(root, "bin"))
    copyFileSync(join(repo, "bin/scorebridge"), join(root, "bin/scorebridge"))
    symlinkSync(join(repo, "node_modules"), join(root, "node_modules"))
    mkdirSync(join(root, "scratch"))
    const built = spawnSync(join(repo, "node_modules/.bin/node"), [join(repo, "scripts/build.ts"), join(root, "dist")], {
      encoding: "utf8"
    })
    if (built.status !== 0) throw new Error(`building the bundle failed (${built.status}): ${built.stderr}`)
  } catch (error) {
    remove()
    throw error
  }
  return {
    dir: join(root, "scratch"),
    // An installed bridge has no SCOREBRIDGE_FROM_SOURCE, whatever the shell that runs the tests set.
    wrap: (env = {}) => (_command, args) => [
      "env",
      ["-u", "SCOREBRIDGE_FROM_SOURCE", ...Object.entries(env).map(([name, value]) => `${name}=${value}`), join(root, "bin/scorebridge"), ...args]
    ],
    remove
  }
}
