import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { slowDiskUnavailable } from "../scripts/support/slow-disk.ts"

/**
 * Refuses, before anything starts, a run whose figures would not be the code's: exits with the
 * status and one line saying why.
 */
export const preflight = ({ slowDisk = true }: { readonly slowDisk?: boolean } = {}): void => {
  // The slow-disk phase needs FUSE and a loop device, and a bench without it would not measure issue 14.
  const noSlowDisk = slowDisk ? slowDiskUnavailable() : undefined
  if (noSlowDisk !== undefined) {
    process.stderr.write(`bench: cannot run the slow-disk phase: ${noSlowDisk}\n`)
    process.exit(69)
  }
  assertBundleFresh()
}

/**
 * The daemon runs from the bundle, as systemd runs it: a bundle older than the source would be
 * measured in place of the code under test (it happened). `npm run bench` builds it first.
 */
const assertBundleFresh = () => {
  const root = join(import.meta.dirname, "..")
  const bundle = join(root, "dist/scorebridge.mjs")
  const builtAt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0
  const newer = ["src", "adapters"].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => statSync(file).mtimeMs > builtAt))
  if (newer.length > 0) {
    process.stderr.write(`dist/scorebridge.mjs is older than ${newer.length} source file(s), e.g. ${newer[0]}: run \`npm run build\` (npm run bench does)\n`)
    process.exit(65)
  }
}
