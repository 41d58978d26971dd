import { mkdirSync, writeFileSync } from "node:fs"
import { userInfo } from "node:os"
import { join } from "node:path"
import { type Child, hasExited, startChild } from "../../scripts/support/child.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { accepts } from "../../scripts/support/mosquitto.ts"

/**
 * A real mosquitto whose configuration is given, the way a host's is: the main file the test
 * writes (`main`: listeners, persistence, logging) followed by `include_dir conf.d`, where the
 * files a deploy step would install go (`confD`, e.g. a shipped bridge snippet with its
 * placeholders replaced). `startMosquitto` (mosquitto.ts) is the one-listener broker most tests
 * want; this one is for tests of deploy configs (TLS listeners, bridges, ACLs).
 *
 * Ready once `port` accepts TCP connections (a TLS listener too: the handshake comes later).
 * `stop()` is SIGTERM (SIGKILL after 2 s) and waits for the exit.
 */
export interface ConfiguredMosquitto {
  readonly port: number
  /** The tail of what the broker logged (stderr), for failure messages and scans. */
  readonly log: () => string
  readonly stop: () => Promise<void>
}

const mosquittoBinary = "/usr/sbin/mosquitto"

export const startConfiguredMosquitto = async (
  dir: string,
  { port, main, confD }: {
    readonly port: number
    readonly main: ReadonlyArray<string>
    readonly confD: Readonly<Record<string, string>>
  }
): Promise<ConfiguredMosquitto> => {
  const confDir = join(dir, "conf.d")
  mkdirSync(confDir, { recursive: true })
  for (const [name, text] of Object.entries(confD)) writeFileSync(join(confDir, name), text)
  const config = join(dir, "mosquitto.conf")
  writeFileSync(config, [
    ...main,
    // Started as root, mosquitto switches to its own user, which cannot read the test's temp
    // files; staying the test's user avoids that (no effect otherwise).
    `user ${userInfo().username}`,
    "log_dest stderr",
    "log_type error",
    "log_type warning",
    "log_type notice",
    `include_dir ${confDir}`,
    ""
  ].join("\n"))
  const child: Child = startChild(mosquittoBinary, ["-c", config])
  try {
    await eventually(`mosquitto (${config}) to accept connections on port ${port}`, async () => {
      if (hasExited(child)) throw new Error(`mosquitto exited early: ${child.stderr()}`)
      return (await accepts(port)) ? true : undefined
    }, { timeoutMs: 10_000 })
  } catch (error) {
    await child.stop()
    throw error
  }
  return { port, log: () => child.stderr(), stop: () => child.stop() }
}
