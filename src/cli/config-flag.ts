import { Flag } from "effect/cli"
import { defaultConfigPath } from "./daemon-arguments.ts"

export { exitConfigError } from "./daemon-arguments.ts"

/** `--config FILE`, shared by every command that reads the daemon's config. */
export const configFlag = Flag.String("config").pipe(
  Flag.withAlias("c"),
  Flag.withDescription("Path of the YAML config (default: $SCOREBRIDGE_CONFIG, else /etc/scorebridge/config.yaml)"),
  Flag.withDefault(defaultConfigPath())
)
