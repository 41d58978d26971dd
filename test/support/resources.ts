import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** Resources a test started, released in reverse order by `release()` in `afterEach`. */
export const resources = () => {
  const stack: Array<() => unknown> = []
  return {
    defer: (release: () => unknown) => {
      stack.push(release)
    },
    release: async () => {
      // Bounded: every pass pops one.
      while (stack.length > 0) await stack.pop()!()
    }
  }
}
export type Resources = ReturnType<typeof resources>

/** A fresh directory under the system's temporary one, removed on release. */
export const tempDir = (res: Resources, prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `scorebridge-${prefix}-`))
  res.defer(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
