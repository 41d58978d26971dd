import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * scripts/system-deps.sh (run before every `npm test`) on pretend machines: a directory standing in
 * for / (SCOREBRIDGE_DEPS_ROOT) whose bin/ is the PATH the script looks commands up in
 * (SCOREBRIDGE_DEPS_PATH). Stand-ins for `apt-get`, `modprobe` and `id` come first on the real
 * PATH: they record how they were called, and the stand-in apt-get "installs" a package by copying
 * its files from a pretend archive into the pretend root, so the script's second check can pass.
 * Nothing is really installed and no network is used.
 */
const script = join(import.meta.dirname, "../../scripts/system-deps.sh")

const stub = "#!/bin/sh\nexit 0\n"
// python3 -c "import MODULE" succeeds when MODULE.py is "installed" beside it.
const python = `#!/bin/sh
case "$2" in "import "*) exec test -e "$(dirname "$0")/../lib/python3/dist-packages/\${2#import }.py" ;; esac
exit 1
`

/** What each Debian package puts on the pretend machine: the files the script takes as proof. */
const packageFiles: Record<string, ReadonlyArray<string>> = {
  socat: ["bin/socat"],
  mosquitto: ["usr/sbin/mosquitto"],
  systemd: ["bin/systemd-analyze", "bin/systemd-notify"],
  "systemd-container": ["bin/systemd-nspawn"],
  python3: ["usr/bin/python3"],
  chromium: ["usr/bin/chromium"],
  fuse: ["bin/fusermount"],
  "python3-fusepy": ["usr/lib/python3/dist-packages/fusepy.py"],
  mount: ["usr/sbin/losetup", "bin/mount", "bin/umount"],
  e2fsprogs: ["usr/sbin/mkfs.ext4"],
  "util-linux": ["bin/unshare", "bin/nsenter"],
  prometheus: ["bin/promtool", "bin/prometheus"],
  "prometheus-alertmanager": ["bin/prometheus-alertmanager"],
  "apt-utils": ["bin/apt-ftparchive"],
  "xz-utils": ["bin/xz"],
  gpg: ["bin/gpg"],
  dpkg: ["bin/dpkg-deb", "bin/dpkg"],
  binutils: ["bin/readelf"],
  "qemu-user": ["bin/qemu-aarch64"],
  "libc6-arm64-cross": ["usr/aarch64-linux-gnu/lib/libc.so.6"],
  "libstdc++6-arm64-cross": ["usr/aarch64-linux-gnu/lib/libstdc++.so.6"]
}

const putPackage = (root: string, name: string): void => {
  for (const file of packageFiles[name]!) {
    mkdirSync(dirname(join(root, file)), { recursive: true })
    writeFileSync(join(root, file), file === "usr/bin/python3" ? python : stub)
    chmodSync(join(root, file), 0o755)
  }
}

const executable = (path: string, text: string): void => {
  writeFileSync(path, text)
  chmodSync(path, 0o755)
}

let dirs: Array<string> = []
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  dirs = []
})

interface Machine {
  /** Packages not installed (every other one is). */
  readonly lacking?: ReadonlyArray<string>
  /** What `id -u` says (default 0: root). */
  readonly uid?: number
  /** /dev/fuse there (default true). */
  readonly fuseDevice?: boolean
  /** `modprobe fuse` brings /dev/fuse (default false). */
  readonly modprobeLoadsFuse?: boolean
  /** Packages the pretend archive lacks: apt-get "installs" them without their files. */
  readonly brokenInArchive?: ReadonlyArray<string>
  /** apt-get install exits 100. */
  readonly aptFails?: boolean
  readonly env?: Record<string, string>
}

const run = (machine: Machine) => {
  const dir = tempDir("system-deps")
  dirs.push(dir)
  const root = join(dir, "root")
  const stubs = join(dir, "stubs")
  const archive = join(dir, "archive")
  mkdirSync(join(root, "bin"), { recursive: true })
  mkdirSync(stubs)
  for (const name of Object.keys(packageFiles)) {
    if (!(machine.lacking ?? []).includes(name)) putPackage(root, name)
    if (!(machine.brokenInArchive ?? []).includes(name)) putPackage(join(archive, name), name)
    else mkdirSync(join(archive, name), { recursive: true })
  }
  const fuse = join(root, "dev/fuse")
  if (machine.fuseDevice ?? true) {
    mkdirSync(dirname(fuse), { recursive: true })
    writeFileSync(fuse, "")
  }

  const aptLog = join(dir, "apt-get.calls")
  const modprobeLog = join(dir, "modprobe.calls")
  executable(join(stubs, "apt-get"), `#!/bin/sh
echo "DEBIAN_FRONTEND=\${DEBIAN_FRONTEND:-} $*" >> '${aptLog}'
[ "$1" = install ] || exit 0
${machine.aptFails === true ? "echo 'E: Unable to locate package' >&2; exit 100" : ""}
for name in "$@"; do
  case "$name" in -*) ;; *) cp -R '${archive}'/"$name"/. '${root}'/ ;; esac
done
`)
  executable(join(stubs, "modprobe"), `#!/bin/sh
echo "$*" >> '${modprobeLog}'
${machine.modprobeLoadsFuse === true ? `mkdir -p '${dirname(fuse)}' && : > '${fuse}'` : ""}
`)
  executable(join(stubs, "id"), `#!/bin/sh\necho ${machine.uid ?? 0}\n`)

  const result = spawnSync("bash", [script], {
    encoding: "utf8",
    timeout: 20_000,
    env: {
      PATH: `${stubs}:${process.env["PATH"]}`,
      // apt-get's output, kept when it fails, lands here and goes with the directory.
      TMPDIR: dir,
      SCOREBRIDGE_DEPS_ROOT: root,
      SCOREBRIDGE_DEPS_PATH: join(root, "bin"),
      ...machine.env
    }
  })
  const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter((l) => l !== "") : [])
  return {
    status: result.status,
    output: `${result.stdout}${result.stderr}`.split("\n").filter((l) => l !== ""),
    aptCalls: lines(aptLog),
    modprobeCalls: lines(modprobeLog)
  }
}

describe("scripts/system-deps.sh", () => {
  it("passes silently, without apt-get, when every tool is there (even as root)", () => {
    const r = run({})
    expect(r).toEqual({ status: 0, output: [], aptCalls: [], modprobeCalls: [] })
  })

  it("lacking socat and mosquitto with installing disabled: exit 1, one line naming both and the command", () => {
    const r = run({ lacking: ["socat", "mosquitto"], env: { SCOREBRIDGE_DEPS_NO_INSTALL: "1" } })
    expect(r.status).toBe(1)
    expect(r.output).toEqual(["npm test needs socat, mosquitto (missing): install them with: apt-get install -y socat mosquitto"])
    expect(r.aptCalls).toEqual([])
  })

  it("not root: the same one line, with sudo, and no apt-get", () => {
    const r = run({ lacking: ["socat", "mosquitto"], uid: 1000 })
    expect(r.status).toBe(1)
    expect(r.output).toEqual(["npm test needs socat, mosquitto (missing): install them with: sudo apt-get install -y socat mosquitto"])
    expect(r.aptCalls).toEqual([])
  })

  it("a missing python module counts as its package missing (python3 itself is there)", () => {
    const r = run({ lacking: ["python3-fusepy"], env: { SCOREBRIDGE_DEPS_NO_INSTALL: "1" } })
    expect(r.status).toBe(1)
    expect(r.output).toEqual(["npm test needs python3-fusepy (missing): install it with: apt-get install -y python3-fusepy"])
  })

  it("as root: apt-get update, then apt-get install of exactly the missing packages, then checks again and passes", () => {
    const r = run({ lacking: ["socat", "chromium", "python3-fusepy"] })
    expect(r.aptCalls).toEqual([
      "DEBIAN_FRONTEND=noninteractive update -qq",
      "DEBIAN_FRONTEND=noninteractive install -y -qq --no-install-recommends --no-remove socat chromium python3-fusepy"
    ])
    expect(r.output).toEqual(["system-deps: installing socat chromium python3-fusepy"])
    expect(r.status).toBe(0)
  })

  it("checks again after installing: a package whose install left its tool missing fails, named alone", () => {
    const r = run({ lacking: ["socat", "mosquitto"], brokenInArchive: ["mosquitto"] })
    expect(r.aptCalls).toHaveLength(2)
    expect(r.status).toBe(1)
    expect(r.output.at(-1)).toBe("npm test needs mosquitto (missing): install it with: apt-get install -y mosquitto")
  })

  it("a failed apt-get install: exit 1, one line with the missing packages and where apt-get's output is", () => {
    const r = run({ lacking: ["socat"], aptFails: true })
    expect(r.status).toBe(1)
    expect(r.output).toHaveLength(2) // the "installing" line, then the failure
    const log = /its output is in (\S+)\)/.exec(r.output[1]!)?.[1]
    expect(r.output[1]).toBe(`npm test needs socat (missing; apt-get failed, its output is in ${log}): install it with: apt-get install -y socat`)
    expect(readFileSync(log!, "utf8")).toContain("E: Unable to locate package")
  })

  it("no /dev/fuse as root: tries modprobe fuse, then one line on how to fix it or opt out", () => {
    const r = run({ fuseDevice: false })
    expect(r.modprobeCalls).toEqual(["fuse"])
    expect(r.status).toBe(1)
    expect(r.output).toHaveLength(1)
    expect(r.output[0]).toMatch(/^npm test needs \/dev\/fuse .*modprobe fuse.*--device \/dev\/fuse --cap-add SYS_ADMIN.*SCOREBRIDGE_WITHOUT_FUSE=1/)
    expect(r.aptCalls).toEqual([])
  })

  it("no /dev/fuse until modprobe fuse loads it: passes", () => {
    const r = run({ fuseDevice: false, modprobeLoadsFuse: true })
    expect(r).toEqual({ status: 0, output: [], aptCalls: [], modprobeCalls: ["fuse"] })
  })

  it("no /dev/fuse, installing disabled: no modprobe, the one line", () => {
    const r = run({ fuseDevice: false, env: { SCOREBRIDGE_DEPS_NO_INSTALL: "1" } })
    expect(r.modprobeCalls).toEqual([])
    expect(r.status).toBe(1)
    expect(r.output[0]).toMatch(/^npm test needs \/dev\/fuse /)
  })

  it("SCOREBRIDGE_WITHOUT_FUSE=1: neither /dev/fuse nor the FUSE packages are required", () => {
    const r = run({ fuseDevice: false, lacking: ["fuse", "python3-fusepy"], env: { SCOREBRIDGE_WITHOUT_FUSE: "1" } })
    expect(r).toEqual({ status: 0, output: [], aptCalls: [], modprobeCalls: [] })
  })
})
