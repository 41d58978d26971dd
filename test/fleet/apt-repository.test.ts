import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AptSource, makeAptClient } from "./support/apt-client.ts"
import { builtPackage, packageBuildTimeoutMs, packageVersion } from "../support/debian-packages.ts"
import { type ArchiveKey, makeArchiveKey } from "./support/archive-key.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The fleet's apt repository (deploy/apt/scorebridge-repo.sh) as a venue sees it: built and signed
 * in a temporary directory with a throw-away archive key (a signing subkey, the primary offline),
 * then read by a real apt-get with its own state, sources and trust from a `file:` source, which
 * installs from it into a throw-away root, or refuses it when the key in `signed-by` is another.
 */
const script = join(import.meta.dirname, "../../deploy/apt/scorebridge-repo.sh")
const keyringName = "scorebridge-archive-keyring.gpg"

let dir: string
let office: ArchiveKey
let stranger: ArchiveKey
let officeSubkeys: string
// The venue's real amd64 package (scripts/package.ts, built once per tree); the rings' tests use small ones.
let realPackage: string

beforeAll(async () => {
  realPackage = await builtPackage("amd64")
  dir = tempDir("apt")
  office = makeArchiveKey(dir, "office")
  stranger = makeArchiveKey(dir, "stranger")
  // What the office's build machine holds: the signing subkey only, the primary stays offline.
  officeSubkeys = join(dir, "office-signing-subkey.gpg")
  office.gpg("--export-secret-subkeys", "--output", officeSubkeys, office.fingerprint)
}, packageBuildTimeoutMs)

afterAll(() => {
  office?.stop()
  stranger?.stop()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

const repoScript = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = office.env) => {
  const result = spawnSync("bash", [script, ...args], { env, encoding: "utf8", timeout: 120_000 })
  return {
    status: result.status,
    stdout: result.stdout,
    output: `scorebridge-repo.sh ${args.join(" ")} exited ${result.status ?? result.signal}\n${result.stdout}${result.stderr}`
  }
}

const ok = (args: ReadonlyArray<string>, env?: NodeJS.ProcessEnv) => {
  const result = repoScript(args, env)
  expect(result.status, result.output).toBe(0)
  return result.stdout
}

// What the real package's bundled Node needs of the system (scripts/package/control.ts); a venue's
// root stands them in from the host's dpkg.
const runtimeDepends = "libc6 (>= 2.28), libstdc++6 (>= 5.2), libgcc-s1 | libgcc1"
const hostPackages = ["libc6", "libstdc++6", "libgcc-s1"]

/** A minimal scorebridge .deb: its program prints its version, so the test can tell which one landed. */
const tinyDeb = (version: string, arch: "amd64" | "arm64", marker = version): string => {
  const tree = mkdtempSync(join(dir, `deb-${version}-${arch}-`))
  mkdirSync(join(tree, "DEBIAN"))
  mkdirSync(join(tree, "usr/lib/scorebridge/bin"), { recursive: true })
  writeFileSync(
    join(tree, "DEBIAN/control"),
    `Package: scorebridge\nVersion: ${version}\nArchitecture: ${arch}\nDepends: ${runtimeDepends}\nMaintainer: Test <test@example.com>\nDescription: bridge scoreboards and buttons to the highlights service (test build)\n`
  )
  const program = join(tree, "usr/lib/scorebridge/bin/scorebridge")
  writeFileSync(program, `#!/bin/sh\necho ${marker}\n`)
  chmodSync(program, 0o755)
  const deb = join(dir, `scorebridge_${version}_${arch}_${marker}.deb`)
  execFileSync("dpkg-deb", ["--build", "--root-owner-group", tree, deb], { stdio: "ignore", timeout: 30_000 })
  return deb
}

const newRepo = (name: string) => join(dir, name)
const venue = (aptDir: string, source: AptSource) => makeAptClient(aptDir, source, { hostPackages })
const withKey = (key: ArchiveKey) => ["--key", key.fingerprint]

describe("deploy/apt/scorebridge-repo.sh", () => {
  it("--help says what it does; an unknown command is refused", () => {
    expect(ok(["--help"])).toContain("promote --repo DIR --version V")
    const unknown = repoScript(["upload", "--repo", newRepo("none")])
    expect(unknown.status, unknown.output).toBe(2)
    expect(unknown.output).toContain("unknown command 'upload'")
  })

  it("a venue's apt-get installs the package from the signed canary suite into its root, with the signing subkey only on the build machine", () => {
    const repo = newRepo("installs")
    // A fresh GnuPG home holding only the exported subkey: what --keyring imports for the run.
    ok(["publish", "--repo", repo, "--suite", "canary", "--keyring", officeSubkeys, realPackage], {
      ...process.env,
      GNUPGHOME: join(dir, "empty-gnupg-home")
    })
    const release = readFileSync(join(repo, "dists/canary/Release"), "utf8")
    for (const field of ["Origin: scorebridge", "Label: scorebridge", "Suite: canary", "Codename: canary", "Architectures: amd64 arm64", "Components: main"]) {
      expect(release).toContain(field)
    }
    expect(release).toMatch(/^Valid-Until: /m)
    for (const arch of ["amd64", "arm64"]) {
      for (const name of ["Packages", "Packages.gz", "Packages.xz"]) expect(release).toContain(`main/binary-${arch}/${name}`)
    }
    expect(readdirSync(join(repo, "dists/canary")).sort()).toEqual(["InRelease", "Release", "Release.gpg", "main"])

    const apt = venue(join(dir, "venue-installs"), {
      repo,
      suite: "canary",
      signedBy: join(repo, keyringName)
    })
    const update = apt.run(["update"])
    expect(update.status, update.output).toBe(0)
    expect(update.output).not.toMatch(/^[WE]:/m)
    // What unattended-upgrades' Origins-Pattern "origin=scorebridge,suite=canary" is matched against.
    expect(apt.run(["policy"], "apt-cache").output).toContain("release o=scorebridge,a=canary,n=canary,l=scorebridge,c=main,b=amd64")
    const install = apt.run(["install", "-y", "scorebridge"])
    expect(install.status, install.output).toBe(0)
    expect(install.output).not.toMatch(/WARNING: The following packages cannot be authenticated|dpkg: warning/)
    expect(apt.installed("scorebridge")).toBe(packageVersion)
    // Its maintainer scripts ran in the root, and its own Node runs the installed command.
    expect(existsSync(join(apt.root, "etc/scorebridge/config.yaml"))).toBe(true)
    expect(execFileSync(join(apt.root, "usr/bin/scorebridge"), ["--version"], { encoding: "utf8", timeout: 30_000 }).trim()).toBe(`scorebridge v${packageVersion}`)

    // Only public key material is served: no secret key in any file the script wrote (the pool holds the packages as given).
    const files = execFileSync("find", [repo, "-type", "f", "-not", "-path", `${repo}/pool/*`], { encoding: "utf8" }).trim().split("\n")
    for (const file of files) {
      expect(readFileSync(file).includes("PRIVATE KEY BLOCK"), relative(repo, file)).toBe(false)
    }
    const packets = execFileSync("gpg", ["--list-packets", join(repo, keyringName)], { env: office.env, encoding: "utf8" })
    expect(packets).toContain(":public key packet:")
    expect(packets).toContain(":public sub key packet:")
    expect(packets).not.toMatch(/secret (sub )?key packet/)
  })

  it("apt-get refuses the suite when signed-by names another key, and nothing is installed", () => {
    const repo = newRepo("refused")
    ok(["publish", "--repo", repo, "--suite", "canary", ...withKey(office), realPackage])
    const strangerKeyring = join(dir, "stranger-keyring.gpg")
    stranger.gpg("--export", "--output", strangerKeyring, stranger.fingerprint)

    const apt = venue(join(dir, "venue-refuses"), { repo, suite: "canary", signedBy: strangerKeyring })
    const update = apt.run(["update"])
    expect(update.status, update.output).not.toBe(0)
    expect(update.output).toMatch(/NO_PUBKEY|not signed/)
    const install = apt.run(["install", "-y", "scorebridge"])
    expect(install.status, install.output).not.toBe(0)
    expect(apt.installed("scorebridge")).toBeUndefined()
    expect(existsSync(join(apt.root, "usr/lib/scorebridge"))).toBe(false)
  })

  it("promote copies exactly the canary version into stable; stable keeps older promoted versions to go back to", () => {
    const repo = newRepo("rings")
    for (const version of ["0.1.0", "0.2.0", "0.3.0"]) {
      ok(["publish", "--repo", repo, "--suite", "canary", ...withKey(office), tinyDeb(version, "amd64"), tinyDeb(version, "arm64")])
    }
    expect(ok(["list", "--repo", repo]).trim().split("\n")).toHaveLength(6)
    expect(existsSync(join(repo, "dists/stable"))).toBe(false)

    ok(["promote", "--repo", repo, "--version", "0.1.0", ...withKey(office)])
    ok(["promote", "--repo", repo, "--version", "0.2.0", ...withKey(office)])
    expect(ok(["list", "--repo", repo, "--suite", "stable"]).trim().split("\n")).toEqual([
      "stable scorebridge 0.1.0 amd64",
      "stable scorebridge 0.1.0 arm64",
      "stable scorebridge 0.2.0 amd64",
      "stable scorebridge 0.2.0 arm64"
    ])

    const unknown = repoScript(["promote", "--repo", repo, "--version", "0.9.0", ...withKey(office)])
    expect(unknown.status, unknown.output).toBe(1)
    expect(unknown.output).toContain("canary has no scorebridge 0.9.0 (it has: 0.1.0 0.2.0 0.3.0)")

    // A stable venue sees the promoted versions only, takes the newest, and can go back to the older one.
    const apt = venue(join(dir, "venue-stable"), { repo, suite: "stable", signedBy: join(repo, keyringName) })
    expect(apt.run(["update"]).status).toBe(0)
    const madison = apt.run(["madison", "scorebridge"], "apt-cache")
    expect(madison.output).toMatch(/scorebridge \|\s+0\.2\.0 \| file:\S+ stable\/main amd64 Packages/)
    expect(madison.output).toMatch(/scorebridge \|\s+0\.1\.0 \|/)
    expect(madison.output).not.toContain("0.3.0")
    let install = apt.run(["install", "-y", "scorebridge"])
    expect(install.status, install.output).toBe(0)
    expect(apt.installed("scorebridge")).toBe("0.2.0")
    install = apt.run(["install", "-y", "--allow-downgrades", "scorebridge=0.1.0"])
    expect(install.status, install.output).toBe(0)
    expect(apt.installed("scorebridge")).toBe("0.1.0")
    // Pinned as docs/fleet.md shows, the venue stays on 0.1.0 though stable offers 0.2.0.
    apt.pin("Package: scorebridge\nPin: version 0.1.0\nPin-Priority: 1001\n")
    const upgrade = apt.run(["upgrade", "-y"])
    expect(upgrade.status, upgrade.output).toBe(0)
    expect(upgrade.output).toContain("0 upgraded")
    expect(apt.installed("scorebridge")).toBe("0.1.0")

    // Withdrawn from canary, 0.3.0 is gone there and stable is untouched.
    ok(["withdraw", "--repo", repo, "--suite", "canary", "--version", "0.3.0", ...withKey(office)])
    expect(ok(["list", "--repo", repo, "--suite", "canary"])).not.toContain("0.3.0")
    expect(ok(["list", "--repo", repo, "--suite", "stable"]).trim().split("\n")).toHaveLength(4)
  })

  it("a suite past its Valid-Until is refused by apt until resign signs it again", () => {
    const repo = newRepo("expired")
    const fortyDaysAgo = Math.floor(Date.now() / 1000) - 40 * 86_400
    ok(["publish", "--repo", repo, "--suite", "canary", "--valid-days", "30", ...withKey(office), tinyDeb("0.1.0", "amd64", "expired")], {
      ...office.env,
      SOURCE_DATE_EPOCH: String(fortyDaysAgo)
    })
    const apt = venue(join(dir, "venue-expired"), { repo, suite: "canary", signedBy: join(repo, keyringName) })
    const stale = apt.run(["update"])
    expect(stale.status, stale.output).not.toBe(0)
    expect(stale.output).toMatch(/no longer valid|expired/)

    expect(ok(["resign", "--repo", repo, ...withKey(office)])).toMatch(/^canary: signed again, Date: .* Valid-Until: /m)
    const fresh = apt.run(["update"])
    expect(fresh.status, fresh.output).toBe(0)
    expect(apt.run(["install", "-y", "scorebridge"]).status).toBe(0)
    expect(apt.installed("scorebridge")).toBe("0.1.0")
  })

  it("refuses what would break venues or leak the key: another key than the published one, a republished version, a secret key inside the repository", () => {
    const repo = newRepo("guards")
    ok(["publish", "--repo", repo, "--suite", "canary", ...withKey(office), tinyDeb("0.1.0", "amd64", "guards")])
    const inRelease = readFileSync(join(repo, "dists/canary/InRelease"))

    const otherKey = repoScript(["publish", "--repo", repo, "--suite", "canary", ...withKey(stranger), tinyDeb("0.2.0", "amd64", "guards")], stranger.env)
    expect(otherKey.status, otherKey.output).toBe(1)
    expect(otherKey.output).toContain("not in the published scorebridge-archive-keyring.gpg")
    expect(readFileSync(join(repo, "dists/canary/InRelease")).equals(inRelease)).toBe(true)

    const rebuilt = repoScript(["publish", "--repo", repo, "--suite", "canary", ...withKey(office), tinyDeb("0.1.0", "amd64", "rebuilt")])
    expect(rebuilt.status, rebuilt.output).toBe(1)
    expect(rebuilt.output).toContain("already in the pool with other contents: give the new build a new version")

    const leaked = join(repo, "signing.gpg")
    execFileSync("cp", [officeSubkeys, leaked])
    const inside = repoScript(["resign", "--repo", repo, "--keyring", leaked])
    expect(inside.status, inside.output).toBe(1)
    expect(inside.output).toContain("is inside the repository")
    expect(readFileSync(join(repo, "dists/canary/InRelease")).equals(inRelease)).toBe(true)
  })
})
