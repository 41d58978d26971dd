import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RollbackRecord } from "../../src/upgrade/rollback-record.ts"
import { builtPackage, nextVersion, packageBuildTimeoutMs, packageVersion } from "../support/debian-packages.ts"
import { type DpkgRoot, makeDpkgRoot } from "../support/dpkg-root.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { unansweredConfig } from "./unanswered-config.ts"

/**
 * The whole way back with the real amd64 packages, in a throw-away root: the current version, an
 * upgrade to the next one (whose preinst keeps the current one with dpkg-repack), then the guard
 * of the installed next version itself, on its own Node, finding it never READY and going back to
 * the kept package through the real maintainer scripts. systemd is not PID 1 here: the watch looks
 * at the status page only, and nobody serves it.
 */
const res = resources()
let current: string
let next: string
let venue: DpkgRoot

beforeAll(async () => {
  current = await builtPackage("amd64")
  next = await builtPackage("amd64", { version: nextVersion, compression: "gzip" })
  venue = makeDpkgRoot(join(tempDir("rollback-package", res), "root"), { hostPackages: ["libc6", "libstdc++6", "libgcc-s1"] })
}, packageBuildTimeoutMs)
afterAll(() => res.release())

const at = (path: string) => join(venue.root, path)

describe("an upgrade of the real package rolled back by its own guard", () => {
  it("keeps the current version at the upgrade, and the new version's guard reinstalls and holds it", async () => {
    venue.dpkg(["-i", current])
    venue.dpkg(["-i", next])
    expect(venue.installed("scorebridge")).toBe(nextVersion)
    const kept = `scorebridge_${packageVersion}_amd64.deb`
    expect(readdirSync(at("var/lib/scorebridge-package/previous"))).toEqual([kept])

    const config = await unansweredConfig(res)
    const guard = (() => {
      try {
        return { code: 0, output: execFileSync(at("usr/bin/scorebridge"), [
          "upgrade-guard", "--from", packageVersion, "--to", nextVersion, "--config", config, "--root", venue.root, "--watch-minutes", "0.05", "--poll-seconds", "0.5"
        ], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 }) }
      } catch (error) {
        const e = error as { status: number; stdout: string; stderr: string }
        return { code: e.status, output: `${e.stdout}${e.stderr}` }
      }
    })()
    expect(guard.code, guard.output).toBe(1)
    expect(guard.output).not.toContain("the config does not load")
    expect(venue.installed("scorebridge"), guard.output).toBe(packageVersion)
    expect(venue.selection("scorebridge")).toBe("hold")
    expect(execFileSync(at("usr/bin/scorebridge"), ["--version"], { encoding: "utf8" }).trim()).toBe(`scorebridge v${packageVersion}`)
    // The rollback is the guard's: preinst kept no copy of the failed version over the one installed.
    expect(readdirSync(at("var/lib/scorebridge-package/previous"))).toEqual([kept])
    const record = Schema.decodeUnknownSync(RollbackRecord)(JSON.parse(readFileSync(at("var/lib/scorebridge-package/rollback.json"), "utf8")))
    expect(record).toMatchObject({ from: packageVersion, to: nextVersion, reasonKind: "never_ready", reinstalled: true, held: true })
  }, 180_000)
})
