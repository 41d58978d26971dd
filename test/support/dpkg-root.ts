import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * A throw-away root that dpkg installs into (`dpkg --root R --force-script-chrootless`): the
 * package's maintainer scripts run unchrooted with DPKG_ROOT=R, as in an image build. The host's
 * own packages are never touched.
 */
export interface DpkgRoot {
  readonly root: string
  /** dpkg in this root; throws with dpkg's output unless it exits 0. */
  readonly dpkg: (args: ReadonlyArray<string>, env?: Readonly<Record<string, string>>) => string
  /** The version installed in this root ("install ok installed"), if any. */
  readonly installed: (name: string) => string | undefined
  /** dpkg's selection for the package: install, hold, deinstall, purge. */
  readonly selection: (name: string) => string | undefined
}

export const dpkgRootArgs = (root: string): ReadonlyArray<string> => ["--root", root, "--force-script-chrootless", "--force-not-root"]

/**
 * `hostPackages`: libraries a real package depends on (libc6, libstdc++6, libgcc-s1), their
 * stanzas copied from the host's dpkg without their own relations (libstdc++6 would pull
 * gcc-12-base, and so on) and with empty file lists: the root stands them in, the host's files serve.
 */
export const makeDpkgRoot = (root: string, { hostPackages = [] }: { readonly hostPackages?: ReadonlyArray<string> } = {}): DpkgRoot => {
  for (const sub of ["info", "updates", "triggers"]) mkdirSync(join(root, "var/lib/dpkg", sub), { recursive: true })
  const status = join(root, "var/lib/dpkg/status")
  const seeded = hostPackages.length === 0 ? "" : execFileSync("dpkg", ["-s", ...hostPackages], { encoding: "utf8" })
  const standIns = seeded.split("\n").filter((line) => !/^(Pre-Depends|Depends|Breaks|Conflicts|Recommends|Suggests): /.test(line))
  writeFileSync(status, seeded === "" ? "" : `${standIns.join("\n").trimEnd()}\n\n`)
  const arch = execFileSync("dpkg", ["--print-architecture"], { encoding: "utf8" }).trim()
  for (const name of hostPackages) writeFileSync(join(root, "var/lib/dpkg/info", `${name}:${arch}.list`), "")
  writeFileSync(join(root, "var/lib/dpkg/available"), "")

  const dpkg = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}): string => {
    const ran = spawnSync("dpkg", [...dpkgRootArgs(root), ...args], { encoding: "utf8", env: { ...process.env, ...env }, timeout: 300_000 })
    const output = `${ran.stdout}${ran.stderr}`
    if (ran.status !== 0) throw new Error(`dpkg ${args.join(" ")} exited ${ran.status ?? ran.signal}:\n${output}`)
    return output
  }
  const stanza = (name: string) =>
    existsSync(status) ? readFileSync(status, "utf8").split(/\n\n+/).find((s) => new RegExp(`^Package: ${name}$`, "m").test(s)) : undefined
  const installed = (name: string) => {
    const found = stanza(name)
    return found !== undefined && /^Status: \w+ ok installed$/m.test(found) ? /^Version: (.+)$/m.exec(found)?.[1] : undefined
  }
  const selection = (name: string) => /^Status: (\w+) /m.exec(stanza(name) ?? "")?.[1]
  return { root, dpkg, installed, selection }
}
