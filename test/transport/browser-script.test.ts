import { describe, expect, it } from "vitest"
import { setupScript } from "../../src/setup/page/setup-script.ts"
import { statusScript } from "../../src/status/status-script.ts"

/**
 * From the sources, each page's script is bundled on first use, and esbuild's service (a child
 * process) is stopped after each bundle: two pages asked for at once in one process (a checkout's
 * demo, a test) must not stop each other's build.
 */
describe("page scripts bundled from the sources", () => {
  it("bundles two pages asked for at the same time, each once", async () => {
    const [setup, status] = await Promise.all([setupScript(), statusScript()])
    expect(setup).toContain("src/setup/page/browser/main.ts")
    expect(status).toContain("src/status/browser/main.ts")
    expect(await setupScript()).toBe(setup)
  })
})
