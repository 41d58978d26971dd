import { execFileSync } from "node:child_process"
import { join } from "node:path"

/**
 * Builds dist/ from the sources under test before any test runs, so every process a test starts
 * through bin/scorebridge runs what is installed on a venue's mini-PC (the bundle, with the
 * daemon's memory flags) and never a bundle older than the sources. A process from the bundle
 * starts in about 0.4 s instead of 1.3 s from the TypeScript sources, and the suite starts
 * hundreds of them.
 */
export default function setup(): void {
  const root = join(import.meta.dirname, "../..")
  execFileSync(process.execPath, [join(root, "scripts/build.ts")], { cwd: root, stdio: "inherit" })
}
