/**
 * The daemon's command line, read without effect/cli: `run`, `run --config FILE`, `run -c FILE`
 * or `run --config=FILE` (what systemd's unit and the docs use). Anything else — `run --help`,
 * another command, a flag this does not know — is left to the full CLI, which parses it, explains
 * mistakes and prints help. The daemon then never loads effect/cli nor the other commands (their
 * code, their module-scope Schemas, the platform services and an Intl.Segmenter that effect/cli
 * makes when it loads: 3.9 MB of the daemon's resident memory, docs/architecture.md, "How the
 * daemon runs").
 */

/** sysexits.h EX_CONFIG: systemd and scripts can tell a config problem from a crash. */
export const exitConfigError = 78

/** `--config`'s default: $SCOREBRIDGE_CONFIG, else the path the install guide uses. */
export const defaultConfigPath = (env: NodeJS.ProcessEnv = process.env): string => env["SCOREBRIDGE_CONFIG"] ?? "/etc/scorebridge/config.yaml"

/** The config path when `args` (argv without node and the script) asks for the daemon in one of its plain forms; undefined otherwise. */
export const daemonConfigArgument = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): string | undefined => {
  if (args[0] !== "run") return undefined
  const rest = args.slice(1)
  if (rest.length === 0) return defaultConfigPath(env)
  const [flag, value] = rest
  if (rest.length === 2 && (flag === "--config" || flag === "-c") && value !== undefined && value !== "" && !value.startsWith("-")) return value
  if (rest.length === 1 && flag!.startsWith("--config=") && flag!.length > "--config=".length) return flag!.slice("--config=".length)
  return undefined
}
