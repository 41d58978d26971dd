import { Command } from "effect/cli"
import { configFlag } from "./config-flag.ts"
import { runDaemon } from "./run-daemon.ts"

export const runCommand = Command.make("run", { config: configFlag }, ({ config }) => runDaemon(config)).pipe(
  Command.withDescription("Run the bridge daemon (what the systemd service starts); SIGHUP reloads the config")
)
