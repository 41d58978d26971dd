import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * A venue's apt as far as a test can have one: apt-get with its own configuration, lists, cache,
 * sources and trust (APT_CONFIG: none of the host's apt.conf.d, so none of its hooks), installing
 * through dpkg into a throw-away root (`--root`, maintainer scripts unchrooted with DPKG_ROOT).
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
  // Packages a real package may depend on, their stanzas copied from the host's dpkg (same architecture).
  { hostPackages = [] }: { readonly hostPackages?: ReadonlyArray<string> } = {}
): AptClient => {
  const root = join(dir, "root")
  for (const sub of ["state/lists/partial", "cache/archives/partial", "apt.conf.d", "sources.list.d", "trusted.gpg.d", "preferences.d", "log"]) {
    mkdirSync(join(dir, sub), { recursive: true })
  }
  for (const sub of ["info", "updates", "triggers"]) mkdirSync(join(root, "var/lib/dpkg", sub), { recursive: true })
  const status = join(root, "var/lib/dpkg/status")
  // The host's stanzas stand in for libraries the root does not really hold: without their own
  // relations (libstdc++6 would pull gcc-12-base, and so on), and with an empty file list each.
  const seeded = hostPackages.length === 0 ? "" : execFileSync("dpkg", ["-s", ...hostPackages], { encoding: "utf8" })
  const standIns = seeded.split("\n").filter((line) => !/^(Pre-Depends|Depends|Breaks|Conflicts|Recommends|Suggests): /.test(line))
  writeFileSync(status, seeded === "" ? "" : `${standIns.join("\n").trimEnd()}\n\n`)
  for (const name of hostPackages) writeFileSync(join(root, "var/lib/dpkg/info", `${name}:amd64.list`), "")
  writeFileSync(join(root, "var/lib/dpkg/available"), "")
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
DPkg::Options { "--root=${root}"; "--force-script-chrootless"; };
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
  const installed = (name: string) => {
    if (!existsSync(status)) return undefined
    const stanza = readFileSync(status, "utf8").split(/\n\n+/).find((s) => new RegExp(`^Package: ${name}$`, "m").test(s))
    if (stanza === undefined || !/^Status: install ok installed$/m.test(stanza)) return undefined
    return /^Version: (.+)$/m.exec(stanza)?.[1]
  }
  const pin = (preferences: string) => writeFileSync(join(dir, "preferences.d/scorebridge"), preferences)
  return { root, run, pin, installed }
}
