import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { bridgeVersion } from "../../src/domain/version.ts"

it("the version on /metrics (scorebridge_bridge_info) is package.json's", () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as { version: string }
  expect(bridgeVersion).toBe(pkg.version)
})
