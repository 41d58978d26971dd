import { Flag } from "effect/cli"

/** `--config FILE`, shared by every command that reads the daemon's config. */
export const configFlag = Flag.String("config").pipe(
  Flag.withAlias("c"),
  Flag.withDescription("Path of the YAML config (default: $SCOREBRIDGE_CONFIG, else /etc/scorebridge/config.yaml)"),
  Flag.withDefault(process.env["SCOREBRIDGE_CONFIG"] ?? "/etc/scorebridge/config.yaml")
)

/** sysexits.h EX_CONFIG: systemd and scripts can tell a config problem from a crash. */
export const exitConfigError = 78
