import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { elfMachine, glibcNeeded } from "../../scripts/package/elf.ts"
import { schemaVersion } from "../../src/delivery/outbox-schema.ts"
import { outboxSchemaField } from "../../src/upgrade/outbox-compatibility.ts"
import { type Architecture, builtPackage, packageBuildTimeoutMs, packageVersion } from "../support/debian-packages.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * What `npm run package` puts in each architecture's package, read back with dpkg-deb: the
 * runtime and the serialport binding are built for that architecture, nothing of the build or
 * test tools is inside, and what the control file asks of the system is what the binaries need.
 */

const root = join(import.meta.dirname, "../..")
const pin = JSON.parse(readFileSync(join(root, "deploy/debian/node-runtime.json"), "utf8")) as {
  version: string
  architectures: Record<Architecture, { elfMachine: string; serialportPrebuild: string }>
}
const res = resources()
const unpacked: Partial<Record<Architecture, { deb: string; dir: string }>> = {}

beforeAll(async () => {
  for (const arch of ["amd64", "arm64"] as const) {
    const deb = await builtPackage(arch)
    const dir = tempDir(`package-${arch}`, res)
    execFileSync("dpkg-deb", ["-R", deb, dir])
    unpacked[arch] = { deb, dir }
    console.log(`${arch}: ${(statSync(deb).size / 1e6).toFixed(1)} MB package, ${readFileSync(join(dir, "DEBIAN/control"), "utf8").match(/^Installed-Size: (\d+)/m)?.[1]} KiB installed`)
  }
}, packageBuildTimeoutMs)

const field = (dir: string, name: string): string | undefined => new RegExp(`^${name}: (.*)$`, "m").exec(readFileSync(join(dir, "DEBIAN/control"), "utf8"))?.[1]

const allFiles = (dir: string): Array<string> => readdirSync(dir, { recursive: true }).map(String)

describe.each(["amd64", "arm64"] as const)("the %s package", (arch) => {
  const at = (path: string) => join(unpacked[arch]!.dir, path)

  it("carries a Node and a serialport binding built for its architecture", () => {
    expect(elfMachine(at("usr/lib/scorebridge/runtime/node"))).toBe(pin.architectures[arch].elfMachine)
    const prebuilds = readdirSync(at("usr/lib/scorebridge/node_modules/@serialport/bindings-cpp/prebuilds"))
    expect(prebuilds, "only this architecture's binding").toEqual([pin.architectures[arch].serialportPrebuild])
    const bindings = readdirSync(at(`usr/lib/scorebridge/node_modules/@serialport/bindings-cpp/prebuilds/${prebuilds[0]}`))
    expect(bindings.length).toBe(1)
    expect(bindings[0]).toMatch(/glibc\.node$/)
    expect(elfMachine(at(`usr/lib/scorebridge/node_modules/@serialport/bindings-cpp/prebuilds/${prebuilds[0]}/${bindings[0]}`))).toBe(pin.architectures[arch].elfMachine)
  })

  it("says what it needs of the system, and that is what its binaries need: no nodejs, npm or compiler", () => {
    const dir = unpacked[arch]!.dir
    expect(field(dir, "Package")).toBe("scorebridge")
    expect(field(dir, "Version")).toBe(packageVersion)
    expect(field(dir, "Architecture")).toBe(arch)
    const natives = allFiles(at("usr/lib/scorebridge")).filter((f) => f.endsWith(".node")).map((f) => at(`usr/lib/scorebridge/${f}`))
    const glibc = glibcNeeded([at("usr/lib/scorebridge/runtime/node"), ...natives])
    expect(field(dir, "Depends")).toBe(`libc6 (>= ${glibc}), libstdc++6 (>= 5.2), libgcc-s1 | libgcc1`)
    // Debian 10 and Ubuntu 20.04 have 2.28 and 2.31: a runtime that needed more would drop them (docs/install.md says which).
    expect(Number(glibc.split(".")[1])).toBeLessThanOrEqual(28)
    expect(`${field(dir, "Depends")} ${field(dir, "Pre-Depends") ?? ""}`).not.toMatch(/nodejs|npm|gcc |g\+\+|make/)
    // What the upgrade guard reads of a kept package before going back to it.
    expect(field(dir, outboxSchemaField)).toBe(String(schemaVersion))
  })

  it("holds the program, the unit, docs, examples and deploy/, and no build or test tool", () => {
    const files = allFiles(unpacked[arch]!.dir)
    for (const expected of [
      "usr/lib/scorebridge/bin/scorebridge",
      "usr/lib/scorebridge/dist/scorebridge.mjs",
      "usr/lib/scorebridge/dist/daemon.mjs",
      "usr/lib/scorebridge/runtime/node",
      "usr/lib/scorebridge/runtime/LICENSE",
      "usr/bin/scorebridge",
      "usr/sbin/scorebridge-set-token",
      "usr/sbin/scorebridge-prometheus-agent-setup",
      "lib/systemd/system/scorebridge.service",
      "lib/systemd/system/scorebridge-upgrade-guard.service",
      "lib/systemd/system/scorebridge-setup.service",
      "lib/systemd/system/scorebridge-reload.path",
      "lib/systemd/system/scorebridge-reload.service",
      "lib/systemd/system/scorebridge-token.path",
      "lib/systemd/system/scorebridge-token.service",
      "lib/systemd/system/apt-daily-upgrade.service.d/scorebridge-upgrade-window.conf",
      "usr/share/doc/scorebridge/README.md",
      "usr/share/doc/scorebridge/copyright",
      "usr/share/doc/scorebridge/docs/install.md",
      "usr/share/scorebridge/examples/daktronics-basketball-usb.yaml",
      "usr/share/scorebridge/deploy/prometheus/scorebridge.rules.yml",
      "DEBIAN/postinst",
      "DEBIAN/md5sums"
    ]) expect(files, expected).toContain(expected)
    const modules = readdirSync(at("usr/lib/scorebridge/node_modules"))
    for (const devTool of ["typescript", "esbuild", "vitest", "@swc", "testdouble", "playwright-core", "dependency-cruiser", "@effect", "effect", "node", "@types"]) {
      expect(modules, `${devTool} is not shipped`).not.toContain(devTool)
    }
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")), "no TypeScript sources").toEqual([])
    // /etc is the venue's: written once by postinst, never a conffile that would hold unattended upgrades back.
    expect(files.filter((f) => f.startsWith("etc/"))).toEqual([])
    // The units run the packaged command, not a checkout's, and point at the manual the package holds.
    expect(readFileSync(at("lib/systemd/system/scorebridge.service"), "utf8")).toContain("ExecStart=/usr/bin/scorebridge run --config /etc/scorebridge/config.yaml")
    expect(readFileSync(at("lib/systemd/system/scorebridge-setup.service"), "utf8")).toContain("ExecStart=/usr/bin/scorebridge setup --serve-unit $SCOREBRIDGE_SETUP_OPTIONS")
    for (const name of readdirSync(at("lib/systemd/system")).filter((n) => n.endsWith(".service"))) {
      const unit = readFileSync(at(`lib/systemd/system/${name}`), "utf8")
      expect(unit, name).not.toContain("/opt/scorebridge")
      const manual = [...unit.matchAll(/file:\/\/(\S+)/gu)].map((m) => m[1]!.slice(1))
      expect(manual.length, `${name} names its manual`).toBeGreaterThan(0)
      for (const page of manual) expect(files, `${name}: ${page}`).toContain(page)
    }
  })
})

it("the runtime it carries is the Node the tests run on, pinned by version and sha512", () => {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> }
  expect(pin.version).toBe(lock.packages["node_modules/node"]?.version)
  expect(process.version).toBe(`v${pin.version}`)
  for (const arch of ["amd64", "arm64"] as const) expect((pin.architectures[arch] as { integrity?: string }).integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/)
})
