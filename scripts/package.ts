// Builds the venue's Debian packages: dist/deb/scorebridge_<version>_<arch>.deb for amd64 (mini-PCs)
// and arm64 (Raspberry Pi-class boxes), with Debian's dpkg-deb. Each carries everything the bridge
// runs on, so the mini-PC needs no build, no npm and no registry: its own Node 24 (the npm
// registry's official build for that architecture, pinned and checked in
// deploy/debian/node-runtime.json), the bundle (scripts/build.ts), and only the modules the bundle
// loads at run time, serialport's native binding for that architecture alone.
//
//   node scripts/package.ts [--version V] [--arch amd64|arm64]... [--out DIR] [--compression xz|gzip]
//
// --version builds a package of another version from the same tree (the upgrade tests install two);
// by default package.json's. --compression gzip builds in a tenth of the time, for packages only
// a test installs; venues get xz. Prints one line per package: its path, size and what it needs of glibc.
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { join, relative } from "node:path"
import { parseArgs } from "node:util"
import { controlFile, type Architecture } from "./package/control.ts"
import { glibcNeeded } from "./package/elf.ts"
import { runtimeModules } from "./package/runtime-modules.ts"

const root = join(import.meta.dirname, "..")
const debian = join(root, "deploy/debian")

interface RuntimePin {
  readonly version: string
  readonly architectures: Record<Architecture, { readonly package: string; readonly integrity: string; readonly serialportPrebuild: string }>
}

const { values } = parseArgs({
  options: {
    version: { type: "string" },
    arch: { type: "string", multiple: true },
    out: { type: "string" },
    // gzip: for packages only a test installs (a tenth of xz's time); what venues get is xz.
    compression: { type: "string", default: "xz" }
  }
})
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }
const version = values.version ?? packageJson.version
if (!/^[0-9][A-Za-z0-9.+~-]*$/.test(version)) throw new Error(`--version ${version}: not a Debian version (starts with a digit; letters, digits and . + ~ -)`)
const architectures = (values.arch ?? ["amd64", "arm64"]) as ReadonlyArray<Architecture>
for (const arch of architectures) if (arch !== "amd64" && arch !== "arm64") throw new Error(`--arch ${arch}: amd64 or arm64`)
const out = values.out ?? join(root, "dist/deb")
const compression = values.compression
if (compression !== "xz" && compression !== "gzip") throw new Error(`--compression ${compression}: xz or gzip`)
const pin = JSON.parse(readFileSync(join(debian, "node-runtime.json"), "utf8")) as RuntimePin

// Downloaded runtimes are kept between builds (about 50 MB each); the pin decides what is used.
const cache = process.env["SCOREBRIDGE_PACKAGE_CACHE"] ?? join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "scorebridge")

const sha512 = (file: string): string => `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`

/** The runtime's tarball, fetched from the npm registry once, refused unless its sha512 is the pinned one. */
const runtimeTarball = (arch: Architecture): string => {
  const { package: name, integrity } = pin.architectures[arch]
  const file = join(cache, `${name}-${pin.version}.tgz`)
  if (!existsSync(file) || sha512(file) !== integrity) {
    mkdirSync(cache, { recursive: true })
    execFileSync("npm", ["pack", `${name}@${pin.version}`, "--pack-destination", cache, "--silent"], { stdio: ["ignore", "ignore", "inherit"] })
  }
  const got = sha512(file)
  if (got !== integrity) {
    rmSync(file, { force: true })
    throw new Error(`${name}@${pin.version}: integrity ${got} is not the pinned ${integrity} (deploy/debian/node-runtime.json); refusing to package it`)
  }
  return file
}

const run = (command: string, args: ReadonlyArray<string>, cwd = root): void => {
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] })
}

// The bundle is the same for both architectures: built once per run, into a directory of its own.
const bundle = join(out, `.bundle-${version}-${process.pid}`)
rmSync(bundle, { recursive: true, force: true })
run(process.execPath, [join(root, "scripts/build.ts"), bundle, "--version", version])

const lib = "usr/lib/scorebridge"
const share = "usr/share/scorebridge"
const doc = "usr/share/doc/scorebridge"

const copyTree = (from: string, to: string): void => {
  cpSync(from, to, { recursive: true, dereference: true })
}

// TypeScript (declarations and the sources some packages ship beside their build: Node never
// strips types inside node_modules), source maps and docs: nothing a running bridge reads.
const notRuntime = /\.(ts|mts|cts|map|md|markdown)$/i
const copyModule = (from: string, to: string): void => {
  cpSync(from, to, { recursive: true, dereference: true, filter: (source) => !notRuntime.test(source) })
}

const buildOne = (arch: Architecture): string => {
  const stage = join(out, `.stage-${version}-${arch}-${process.pid}`)
  rmSync(stage, { recursive: true, force: true })
  mkdirSync(join(stage, "DEBIAN"), { recursive: true })
  const at = (path: string): string => join(stage, path)

  // --- the program: launcher, bundle, runtime, modules ---
  mkdirSync(at(`${lib}/bin`), { recursive: true })
  copyFileSync(join(root, "bin/scorebridge"), at(`${lib}/bin/scorebridge`))
  chmodSync(at(`${lib}/bin/scorebridge`), 0o755)
  copyTree(bundle, at(`${lib}/dist`))
  mkdirSync(at(`${lib}/runtime`), { recursive: true })
  run("tar", ["-xzf", runtimeTarball(arch), "-C", at(`${lib}/runtime`), "--strip-components=1", "package/bin/node", "package/LICENSE"])
  // bin/scorebridge runs runtime/node when it is there (the package), node_modules/.bin/node otherwise (a checkout).
  renameSync(at(`${lib}/runtime/bin/node`), at(`${lib}/runtime/node`))
  rmSync(at(`${lib}/runtime/bin`), { recursive: true })
  for (const module of runtimeModules(join(root, "node_modules"), pin.architectures[arch].serialportPrebuild)) {
    copyModule(module.from, at(`${lib}/node_modules/${module.path}`))
    for (const dropped of module.drop) rmSync(at(`${lib}/node_modules/${module.path}/${dropped}`), { recursive: true, force: true })
  }
  // The bundle's imports need no package.json of ours; this one says what the directory is.
  writeFileSync(at(`${lib}/package.json`), `${JSON.stringify({ name: "scorebridge", version, private: true, type: "module" }, null, 2)}\n`)
  mkdirSync(at("usr/bin"), { recursive: true })
  symlinkSync("../lib/scorebridge/bin/scorebridge", at("usr/bin/scorebridge"))
  mkdirSync(at("usr/sbin"), { recursive: true })
  copyFileSync(join(debian, "scorebridge-set-token"), at("usr/sbin/scorebridge-set-token"))
  chmodSync(at("usr/sbin/scorebridge-set-token"), 0o755)
  copyFileSync(join(root, "systemd/prometheus-agent-setup.sh"), at("usr/sbin/scorebridge-prometheus-agent-setup"))
  chmodSync(at("usr/sbin/scorebridge-prometheus-agent-setup"), 0o755)

  // --- systemd: the service, the upgrade guard, the upgrade window for unattended-upgrades ---
  const units = at("lib/systemd/system")
  mkdirSync(units, { recursive: true })
  writeFileSync(join(units, "scorebridge.service"), packagedUnit(readFileSync(join(root, "systemd/scorebridge.service"), "utf8")))
  // The fleet's Prometheus agent ships disabled (docs/fleet.md says how to turn it on).
  // The setup page's own unit (started by `sudo scorebridge setup`) and the reload it needs as root.
  for (const unit of ["scorebridge-upgrade-guard.service", "scorebridge-prometheus-agent.service", ...setupUnits]) {
    writeFileSync(join(units, unit), packagedUnit(readFileSync(join(root, "systemd", unit), "utf8")))
  }
  mkdirSync(join(units, "apt-daily-upgrade.service.d"), { recursive: true })
  copyFileSync(join(debian, "apt-daily-upgrade-window.conf"), join(units, "apt-daily-upgrade.service.d/scorebridge-upgrade-window.conf"))

  // --- what the technician and the office read and copy ---
  mkdirSync(at(`${share}/examples`), { recursive: true })
  for (const name of readdirSync(join(root, "config"))) copyFileSync(join(root, "config", name), at(`${share}/examples/${name}`))
  copyTree(join(root, "deploy"), at(`${share}/deploy`))
  rmSync(at(`${share}/deploy/debian`), { recursive: true })
  mkdirSync(at(doc), { recursive: true })
  copyFileSync(join(root, "README.md"), at(`${doc}/README.md`))
  copyTree(join(root, "docs"), at(`${doc}/docs`))
  copyFileSync(join(debian, "copyright"), at(`${doc}/copyright`))

  // --- control ---
  const elfFiles = [at(`${lib}/runtime/node`), ...findFiles(at(`${lib}/node_modules`), (f) => f.endsWith(".node"))]
  const glibc = glibcNeeded(elfFiles)
  writeFileSync(at("DEBIAN/control"), controlFile({ version, arch, glibc, installedSizeKiB: diskUsageKiB(stage) }))
  for (const script of ["preinst", "postinst", "prerm", "postrm"]) {
    writeFileSync(at(`DEBIAN/${script}`), readFileSync(join(debian, script), "utf8").replaceAll("@VERSION@", version))
    chmodSync(at(`DEBIAN/${script}`), 0o755)
  }
  writeFileSync(at("DEBIAN/md5sums"), md5sums(stage))

  mkdirSync(out, { recursive: true })
  const deb = join(out, `scorebridge_${version}_${arch}.deb`)
  const partial = `${deb}.${process.pid}.partial`
  // xz: what every Debian since 10 and Ubuntu since 20.04 unpack (zstd only from Debian 12).
  // Built aside and renamed: whoever reads dist/deb (a test, a repository script) never sees half a package.
  run("dpkg-deb", ["--root-owner-group", `-Z${compression}`, compression === "xz" ? "-z6" : "-z1", "--build", stage, partial])
  renameSync(partial, deb)
  rmSync(stage, { recursive: true, force: true })
  return deb
}

/** The setup page's unit and the path units that reload the bridge after a save and restart it on a new token (postinst enables the paths). */
const setupUnits = ["scorebridge-setup.service", "scorebridge-reload.path", "scorebridge-reload.service", "scorebridge-token.path", "scorebridge-token.service"]

/** The repository's unit (written for systemd/install.sh's /opt/scorebridge), pointed at the package's paths. */
const packagedUnit = (unit: string): string =>
  unit
    .replaceAll("/opt/scorebridge/bin/scorebridge", "/usr/bin/scorebridge")
    .replaceAll("file:///opt/scorebridge/", "file:///usr/share/doc/scorebridge/")

function findFiles(directory: string, wanted: (file: string) => boolean): Array<string> {
  if (!existsSync(directory)) return []
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && wanted(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
}

function diskUsageKiB(stage: string): number {
  let bytes = 0
  for (const file of findFiles(stage, () => true)) if (!relative(stage, file).startsWith("DEBIAN")) bytes += statSync(file).size
  return Math.ceil(bytes / 1024)
}

function md5sums(stage: string): string {
  return findFiles(stage, () => true)
    .map((file) => relative(stage, file))
    .filter((path) => !path.startsWith("DEBIAN/"))
    .sort()
    .map((path) => `${createHash("md5").update(readFileSync(join(stage, path))).digest("hex")}  ${path}\n`)
    .join("")
}

for (const arch of architectures) {
  const deb = buildOne(arch)
  const mb = (statSync(deb).size / 1e6).toFixed(1)
  console.log(`${relative(process.cwd(), deb)} ${mb} MB`)
}
rmSync(bundle, { recursive: true, force: true })
