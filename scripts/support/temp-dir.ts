import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * A fresh directory under the system's temporary one, `scorebridge-PREFIX-XXXXXX`. With
 * `releases` (a test's resources), it is removed when they are released; without, it is left for
 * whoever reads a failed run's files.
 */
export const tempDir = (prefix: string, releases?: { readonly defer: (release: () => unknown) => void }): string => {
  const dir = mkdtempSync(join(tmpdir(), `scorebridge-${prefix}-`))
  releases?.defer(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
