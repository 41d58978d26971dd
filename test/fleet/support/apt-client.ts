import { spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { dpkgRootArgs, makeDpkgRoot } from "../../support/dpkg-root.ts"

/**
 * A venue's apt as far as a test can have one: apt-get with its own configuration, lists, cache,
 * sources and trust (APT_CONFIG: none of the host's apt.conf.d, so none of its hooks), installing
 * through dpkg into a throw-away root (test/support/dpkg-root.ts).
 * The host's own packages are never touched. Downloads run as root, not as `_apt`: the test's
 * temporary directories are private to it.
 */
export interface AptClient {
  /** The throw-away root dpkg installs into. */
  readonly root: string
  /** apt-get, or apt-cache with `{ tool: "apt-cache" }`; never throws. */
  readonly run: (args: ReadonlyArray<string>, tool?: "apt-get" | "apt-cache") => { readonly status: number | null; readonly output: string }
  /** Writes an apt preferences file (a pin) in this client's preferences.d. */
  readonly pin: (preferences: string) => void
  /** The version dpkg has installed in the root, if any. */
  readonly installed: (name: string) => string | undefined
}

export interface AptSource {
  /** The repository's top directory (a `file:` source). */
  readonly repo: string
  readonly suite: string
  /** The keyring in `signed-by`. */
  readonly signedBy: string
}

export const makeAptClient = (
  dir: string,
  source: AptSource,
  // Libraries a real package depends on, stood in from the host's dpkg (makeDpkgRoot).
  { hostPackages = [] }: { readonly hostPackages?: ReadonlyArray<string> } = {}
): AptClient => {
  const { root, installed } = makeDpkgRoot(join(dir, "root"), { hostPackages })
  for (const sub of ["state/lists/partial", "cache/archives/partial", "apt.conf.d", "sources.list.d", "trusted.gpg.d", "preferences.d", "log"]) {
    mkdirSync(join(dir, sub), { recursive: true })
  }
  const status = join(root, "var/lib/dpkg/status")
  writeFileSync(join(dir, "sources.list"), `deb [signed-by=${source.signedBy}] file:${source.repo} ${source.suite} main\n`)
  const config = join(dir, "apt.conf")
  writeFileSync(
    config,
    `Dir::Etc::Main "/dev/null";
Dir::Etc::Parts "${dir}/apt.conf.d";
Dir::State "${dir}/state";
Dir::State::status "${status}";
Dir::Cache "${dir}/cache";
Dir::Log "${dir}/log";
Dir::Etc::SourceList "${dir}/sources.list";
Dir::Etc::SourceParts "${dir}/sources.list.d";
Dir::Etc::Trusted "/dev/null";
Dir::Etc::TrustedParts "${dir}/trusted.gpg.d";
Dir::Etc::Preferences "${dir}/preferences";
Dir::Etc::PreferencesParts "${dir}/preferences.d";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages "none";
APT::Sandbox::User "root";
DPkg::Options { ${dpkgRootArgs(root).map((arg) => `"${arg}";`).join(" ")} };
`
  )
  const env = { ...process.env, APT_CONFIG: config, DEBIAN_FRONTEND: "noninteractive", LC_ALL: "C" }
  const run = (args: ReadonlyArray<string>, tool: "apt-get" | "apt-cache" = "apt-get") => {
    const result = spawnSync(tool, args, { env, encoding: "utf8", timeout: 120_000 })
    return {
      status: result.status,
      output: `${tool} ${args.join(" ")} exited ${result.status ?? result.signal}${result.error === undefined ? "" : ` (${result.error.message})`}\n${result.stdout}${result.stderr}`
    }
  }
  const pin = (preferences: string) => writeFileSync(join(dir, "preferences.d/scorebridge"), preferences)
  return { root, run, pin, installed }
}
