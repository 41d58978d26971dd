import { copyFileSync, mkdirSync, writeFileSync } from "node:fs"
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { expect } from "vitest"
import { outboxSchemaField } from "../../src/upgrade/outbox-compatibility.ts"
import { makeDpkgRoot } from "../support/dpkg-root.ts"
import { type Resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * Two tiny packages named scorebridge (a VERSION file each) in a throw-away dpkg root, for the
 * guard's way back: the mechanics of going back do not depend on what the package holds. The real
 * packages go the same way in test/upgrade/rollback-package.test.ts.
 */

export const arch = execFileSync("dpkg", ["--print-architecture"], { encoding: "utf8" }).trim()

export const tinyPackage = (dir: string, version: string, { outboxSchema }: { readonly outboxSchema?: number } = {}): string => {
  const tree = join(dir, `tree-${version}`)
  mkdirSync(join(tree, "DEBIAN"), { recursive: true })
  mkdirSync(join(tree, "usr/lib/scorebridge"), { recursive: true })
  writeFileSync(join(tree, "usr/lib/scorebridge/VERSION"), `${version}\n`)
  writeFileSync(join(tree, "DEBIAN/control"), [
    "Package: scorebridge",
    `Version: ${version}`,
    `Architecture: ${arch}`,
    "Maintainer: scorebridge tests <tests@example.invalid>",
    ...(outboxSchema === undefined ? [] : [`${outboxSchemaField}: ${outboxSchema}`]),
    "Description: rollback test package",
    ""
  ].join("\n"))
  // Notes how it was called, as the real preinst decides by it whether to keep a copy.
  writeFileSync(join(tree, "DEBIAN/preinst"), '#!/bin/sh\necho "$1 ${SCOREBRIDGE_ROLLBACK:-}" >>"$DPKG_ROOT/preinst.log"\n', { mode: 0o755 })
  const deb = join(dir, `scorebridge_${version}_${arch}.deb`)
  execFileSync("dpkg-deb", ["--root-owner-group", "--build", tree, deb], { stdio: "pipe" })
  return deb
}

export const versionIn = (root: string) =>
  execFileSync("dpkg-query", ["--root", root, "-W", "-f", "${Version}", "scorebridge"], { encoding: "utf8" })

/**
 * 0.1.0 installed, then 0.2.0 over it, 0.1.0's package kept (unless `keep` is false) as the real
 * preinst keeps it; `keptOutboxSchema`: what the kept package says of the outbox schema it knows.
 */
export const upgradedRoot = (res: Resources, { keep = true, keptOutboxSchema }: { readonly keep?: boolean; readonly keptOutboxSchema?: number } = {}) => {
  const dir = tempDir("rollback", res)
  const older = tinyPackage(dir, "0.1.0", keptOutboxSchema === undefined ? {} : { outboxSchema: keptOutboxSchema })
  const newer = tinyPackage(dir, "0.2.0")
  const venue = makeDpkgRoot(join(dir, "root"))
  venue.dpkg(["-i", older])
  venue.dpkg(["-i", newer])
  const packageDirectory = join(venue.root, "var/lib/scorebridge-package")
  mkdirSync(join(packageDirectory, "previous"), { recursive: true })
  if (keep) copyFileSync(older, join(packageDirectory, "previous", `scorebridge_0.1.0_${arch}.deb`))
  expect(versionIn(venue.root)).toBe("0.2.0")
  return { root: venue.root, packageDirectory, selection: () => venue.selection("scorebridge") }
}
