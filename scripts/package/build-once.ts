import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { promisify } from "node:util"
import type { Architecture } from "./control.ts"

/**
 * The venue's Debian packages as the tests need them, built by `scripts/package.ts` once and
 * shared (about a minute or two per package, most of it xz): each build is stamped with a
 * fingerprint of what goes into it, and a later test, or a later run on an unchanged tree, reuses
 * it. Two test files asking at once (two workers) build it once: the second waits on a lock.
 * `npm test` builds them before the suite starts (scripts/test-packages.ts), so no build competes
 * for the CPU with the suite's timing-sensitive tests.
 */

const root = join(import.meta.dirname, "../..")
const out = join(root, "dist/deb")

/** Polls `check` until it returns a value (a lock free), or fails after `timeoutMs`. */
const waitFor = async (what: string, check: () => true | undefined, { timeoutMs, intervalMs }: { readonly timeoutMs: number; readonly intervalMs: number }) => {
  const deadline = Date.now() + timeoutMs
  while (check() === undefined) {
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

export type { Architecture }

/** package.json's version: the package `npm run package` builds. */
export const packageVersion = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version

/** A version newer than packageVersion (Debian orders 0.1.0+next after 0.1.0), built from the same tree for the upgrade tests. */
export const nextVersion = `${packageVersion}+next`

// What a package is made of: a change to any of them makes a stale package.
const inputs = ["src", "adapters", "simulator", "bin", "config", "docs", "deploy", "systemd", "scripts/build.ts", "scripts/package.ts", "scripts/package", "README.md", "package-lock.json"]

const files = (path: string): Array<string> =>
  statSync(path).isDirectory() ? readdirSync(path, { recursive: true }).map((name) => join(path, String(name))).filter((file) => statSync(file).isFile()) : [path]

const fingerprint = (): string => {
  const hash = createHash("sha256")
  for (const input of inputs) {
    for (const file of files(join(root, input)).sort()) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0")
  }
  return hash.digest("hex")
}

let memo: string | undefined
const currentFingerprint = (): string => (memo ??= fingerprint())

const lockDir = join(out, ".lock")

const withLock = async <A>(body: () => Promise<A>): Promise<A> => {
  mkdirSync(out, { recursive: true })
  await waitFor("the package build lock (another test worker is building)", () => {
    try {
      mkdirSync(lockDir)
      writeFileSync(join(lockDir, "pid"), String(process.pid))
      return true
    } catch {
      // A lock whose builder died (a killed run) is stale.
      const pid = Number(readFileSync(join(lockDir, "pid"), { encoding: "utf8", flag: "a+" }) || NaN)
      if (Number.isInteger(pid) && !alive(pid)) rmSync(lockDir, { recursive: true, force: true })
      return undefined
    }
  }, { timeoutMs: 20 * 60_000, intervalMs: 500 })
  try {
    return await body()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * The package of `version` for `arch`, built unless an up-to-date one is there. `compression`
 * gzip is for packages only a test installs (the second version of the upgrade tests): dpkg
 * unpacks them the same way, in a tenth of xz's build time.
 */
export const builtPackage = async (
  arch: Architecture,
  { version = packageVersion, compression = "xz" }: { readonly version?: string; readonly compression?: "xz" | "gzip" } = {}
): Promise<string> => {
  const deb = join(out, `scorebridge_${version}_${arch}.deb`)
  const stamp = `${deb}.fingerprint`
  // SCOREBRIDGE_REUSE_PACKAGES=1 takes whatever dist/deb holds: for iterating on a package test
  // while the sources change under it, never for a run that judges the tree.
  const reuse = process.env["SCOREBRIDGE_REUSE_PACKAGES"] === "1"
  const upToDate = () => existsSync(deb) && (reuse || (existsSync(stamp) && readFileSync(stamp, "utf8") === `${currentFingerprint()} ${compression}`))
  if (upToDate()) return deb
  return withLock(async () => {
    if (upToDate()) return deb
    rmSync(stamp, { force: true })
    const args = [join(root, "scripts/package.ts"), "--version", version, "--arch", arch, "--compression", compression]
    await promisify(execFile)(process.execPath, args, { cwd: root, maxBuffer: 16 * 1024 * 1024 })
    writeFileSync(stamp, `${currentFingerprint()} ${compression}`)
    return deb
  })
}

/** What the tests install: both architectures as venues get them, and a newer amd64 version for the upgrades. */
export const testPackages = async (): Promise<ReadonlyArray<string>> => [
  await builtPackage("amd64"),
  await builtPackage("arm64"),
  await builtPackage("amd64", { version: nextVersion, compression: "gzip" })
]
