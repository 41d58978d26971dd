import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, expect, it } from "vitest"
import { builtPackage, packageBuildTimeoutMs, packageVersion } from "../support/debian-packages.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * The arm64 package's programs run here under Debian's qemu-user (qemu-aarch64) with Debian's
 * arm64 C and C++ libraries (libc6-arm64-cross, libstdc++6-arm64-cross: /usr/aarch64-linux-gnu):
 * its Node starts, its serialport binding loads, and the installed `scorebridge check` judges an
 * example config. Emulated, a command takes seconds where it takes tenths natively.
 */

const sysroot = "/usr/aarch64-linux-gnu"
const res = resources()
let lib: string
let cli: string

beforeAll(async () => {
  const deb = await builtPackage("arm64")
  const dir = tempDir("arm64", res)
  execFileSync("dpkg-deb", ["-x", deb, dir])
  lib = join(dir, "usr/lib/scorebridge")
  cli = join(lib, "dist/scorebridge.mjs")
}, packageBuildTimeoutMs)

const arm64Node = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  spawnSync("qemu-aarch64", ["-L", sysroot, join(lib, "runtime/node"), ...args], { cwd: lib, encoding: "utf8", env: { ...process.env, ...env }, timeout: 120_000 })

it("its Node runs and is the pinned version", () => {
  const ran = arm64Node(["-p", "`${process.version} ${process.arch}`"])
  expect(ran.status, ran.stderr).toBe(0)
  expect(ran.stdout.trim()).toBe(`${process.version} arm64`)
})

it("its serialport binding loads", () => {
  const ran = arm64Node(["-e", "console.log(Object.keys(require('node-gyp-build')('node_modules/@serialport/bindings-cpp')).sort().join(','))"])
  expect(ran.status, ran.stderr).toBe(0)
  expect(ran.stdout.trim().split(",")).toEqual(expect.arrayContaining(["open", "close", "set", "get", "Poller"]))
}, 60_000)

it("scorebridge --version and check of an example config", () => {
  const version = arm64Node([cli, "--version"])
  expect(version.stdout.trim(), version.stderr).toBe(`scorebridge v${packageVersion}`)
  const credentials = tempDir("arm64-credentials", res)
  mkdirSync(credentials, { recursive: true })
  writeFileSync(join(credentials, "token"), "tok-arm64\n")
  const example = join(lib, "../../share/scorebridge/examples/daktronics-basketball-usb.yaml")
  const check = arm64Node([cli, "check", "--config", example], { CREDENTIALS_DIRECTORY: credentials })
  expect(check.status, check.stderr).toBe(0)
  expect(check.stdout).toContain("is valid.")
  expect(check.stdout).toContain("daktronics-rtd over serial")
  expect(check.stdout + check.stderr).not.toContain("tok-arm64")
}, 120_000)
