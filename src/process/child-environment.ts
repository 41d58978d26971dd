/**
 * What a child inherits when its place names no environment: what any tool needs to be found and
 * to speak (PATH, locale, time zone, home) and glibc's allocator settings (bin/scorebridge's
 * MALLOC_ARENA_MAX keeps a node child small too), and nothing else of the daemon's. The daemon's own
 * variables may hold a secret (`token: { env: NAME }` names any variable), which gpiomon, logger
 * or systemd-notify have no use for.
 */
const toolVariables = /^(?:PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|MALLOC_[A-Z_]+)$/u

/** `inherit: "tool"`: the variables above; `"all"`: the whole environment (a package manager's scripts). */
export type Inherit = "tool" | "all"

export const childEnvironment = (
  inherit: Inherit,
  set: Readonly<Record<string, string>>,
  parent: NodeJS.ProcessEnv = process.env
): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && (inherit === "all" || toolVariables.test(name))) env[name] = value
  }
  return { ...env, ...set }
}
