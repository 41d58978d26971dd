import { afterAll, beforeAll, type TestContext } from "vitest"
import { bootSystemdContainer, type SystemdContainer, systemdContainerUnavailable } from "../../scripts/support/systemd-container.ts"

/**
 * One systemd container for a test file (scripts/support/systemd-container.ts): booted in
 * `beforeAll`, powered off and removed in `afterAll` whatever the tests did. Where this machine
 * cannot boot one (not root, no systemd-nspawn, the boot fails) every test that asks for it is
 * skipped with the reason, instead of failing the suite.
 *
 * ```ts
 * const machine = systemdContainerPerFile("daemon-unit", async (container) => { ...install... })
 * it("...", async (ctx) => { const container = machine.use(ctx); ... })
 * ```
 *
 * `prepare` runs after the boot, inside `beforeAll`'s bound (`hookTimeoutMs`): an error there
 * fails the file, as a broken package must.
 */
export interface ContainerPerFile {
  /** The container, or a skip of the calling test that says why there is none. */
  readonly use: (ctx: TestContext) => SystemdContainer
}

export const systemdContainerPerFile = (
  label: string,
  prepare: (container: SystemdContainer) => Promise<void> = async () => {},
  { hookTimeoutMs = 120_000 }: { readonly hookTimeoutMs?: number } = {}
): ContainerPerFile => {
  let container: SystemdContainer | undefined
  let unavailable = systemdContainerUnavailable()
  beforeAll(async () => {
    if (unavailable !== undefined) return
    try {
      container = await bootSystemdContainer(label)
    } catch (error) {
      unavailable = `this machine could not boot a systemd container: ${error instanceof Error ? error.message : String(error)}`
      return
    }
    await prepare(container)
  }, hookTimeoutMs)
  afterAll(() => container?.stop(), 60_000)
  return {
    use: (ctx) => {
      if (container === undefined) return ctx.skip(unavailable ?? "the systemd container was not booted")
      return container
    }
  }
}
