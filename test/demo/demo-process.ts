import { type Resources } from "../scoreboard/harness.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type ScorebridgeProcess, startScorebridge } from "../../scripts/support/scorebridge-process.ts"

export interface RunningDemo {
  /** Its status page, e.g. http://127.0.0.1:41234 */
  readonly url: string
  readonly demo: ScorebridgeProcess
}

/**
 * `scorebridge demo` as a process (what `npm start` runs), its status page on a free loopback port,
 * once `deliveries` of its entries were delivered. It plays enough points to outlive a test; `res` stops it.
 */
export const startDemo = async (
  res: Resources,
  { deliveries = 1, env = {} }: { readonly deliveries?: number; readonly env?: Readonly<Record<string, string>> } = {}
): Promise<RunningDemo> => {
  const port = await freePort()
  const demo = startScorebridge(["demo", "--points", "500", "--point-every-ms", "1000", "--status-listen", `127.0.0.1:${port}`], { env })
  res.defer(() => demo.stop())
  await eventually(`${deliveries} of the demo's entries delivered`, () => (demo.stdout().split("delivered").length > deliveries ? true : undefined), { timeoutMs: 20_000 })
    .catch((error: Error) => {
      throw new Error(`${error.message}\nstdout: ${demo.stdout().slice(-2_000)}\nstderr: ${demo.stderr().slice(-2_000)}`)
    })
  return { url: `http://127.0.0.1:${port}`, demo }
}
