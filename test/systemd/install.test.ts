import { spawnSync } from "node:child_process"
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/** systemd/install.sh against a temporary root: no systemctl, no npm, no container. */
const script = join(import.meta.dirname, "../../systemd/install.sh")
const repoUnit = join(import.meta.dirname, "../../systemd/scorebridge.service")
const token = "venue-token-9f3a"

let root: string
beforeEach(() => {
  root = tempDir("install")
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const install = (args: ReadonlyArray<string>, input = "") =>
  spawnSync("bash", [script, "--root", root, "--skip-npm", ...args], { encoding: "utf8", input, timeout: 30_000 })

const lstatExists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)
const at = (path: string) => join(root, path)

describe("systemd/install.sh --root", () => {
  it("installs program, config, root-only token and unit; a second run keeps the venue's config and token", () => {
    const first = install([], `${token}\n`)
    expect(first.status, first.stderr).toBe(0)
    expect(existsSync(at("opt/scorebridge/bin/scorebridge"))).toBe(true)
    expect(existsSync(at("opt/scorebridge/src/cli.ts"))).toBe(true)
    // `scorebridge demo` and `sim` load it; npm ci's build bundles it.
    expect(existsSync(at("opt/scorebridge/simulator/index.ts"))).toBe(true)
    expect(existsSync(at("opt/scorebridge/package-lock.json"))).toBe(true)
    expect(existsSync(at("opt/scorebridge/test")), "tests are not shipped").toBe(false)
    // The unit's Documentation= points at the manual shipped with the program.
    expect(existsSync(at("opt/scorebridge/docs/operations.md"))).toBe(true)
    // `scorebridge sniff` etc. are typed at the venue: the command is on PATH, pointing where the system will have it.
    expect(readlinkSync(at("usr/local/bin/scorebridge"))).toBe("/opt/scorebridge/bin/scorebridge")
    expect(readFileSync(at("etc/systemd/system/scorebridge.service"), "utf8")).toBe(readFileSync(repoUnit, "utf8"))
    expect(readFileSync(at("etc/scorebridge/config.yaml"), "utf8")).toContain("credential: token")
    expect(readFileSync(at("etc/scorebridge/credentials/token"), "utf8")).toBe(`${token}\n`)
    expect(mode(at("etc/scorebridge/credentials/token"))).toBe("600")
    expect(mode(at("etc/scorebridge/credentials"))).toBe("700")
    // The service's dynamic user reads the program and the config.
    expect(mode(at("opt/scorebridge"))).toBe("755")
    expect(mode(at("etc/scorebridge/config.yaml"))).toBe("644")
    // The token is never printed, and systemctl is not called with --root.
    expect(first.stdout + first.stderr).not.toContain(token)
    expect(first.stdout).toContain("(--root: skipped) systemctl enable scorebridge.service")

    writeFileSync(at("etc/scorebridge/config.yaml"), "# edited for this venue\n")
    const second = install([], "")
    expect(second.status, second.stderr).toBe(0)
    expect(readFileSync(at("etc/scorebridge/config.yaml"), "utf8")).toBe("# edited for this venue\n")
    expect(readFileSync(at("etc/scorebridge/credentials/token"), "utf8")).toBe(`${token}\n`)
  })

  it("takes a replacement token from --token-file, trimmed", () => {
    expect(install([], `${token}\n`).status).toBe(0)
    const file = join(root, "new-token")
    writeFileSync(file, "  replaced-token \n")
    const result = install(["--token-file", file])
    expect(result.status, result.stderr).toBe(0)
    expect(readFileSync(at("etc/scorebridge/credentials/token"), "utf8")).toBe("replaced-token\n")
    expect(mode(at("etc/scorebridge/credentials/token"))).toBe("600")
  })

  it("refuses to install without any token, or with a token that is not one word, and changes nothing", () => {
    const none = install([], "")
    expect(none.status).toBe(1)
    expect(none.stderr).toContain("no token given")
    const spaced = install([], "two words\n")
    expect(spaced.status).toBe(1)
    expect(spaced.stderr).not.toContain("two words")
    expect(existsSync(at("opt/scorebridge"))).toBe(false)
  })

  it("--uninstall keeps config, token and state; --uninstall --purge removes them", () => {
    expect(install([], `${token}\n`).status).toBe(0)
    mkdirSync(at("var/lib/private/scorebridge"), { recursive: true })
    writeFileSync(at("var/lib/private/scorebridge/outbox.sqlite"), "pending entries")

    const removed = install(["--uninstall"])
    expect(removed.status, removed.stderr).toBe(0)
    expect(existsSync(at("opt/scorebridge"))).toBe(false)
    expect(existsSync(at("etc/systemd/system/scorebridge.service"))).toBe(false)
    expect(existsSync(at("usr/local/bin/scorebridge")) || lstatExists(at("usr/local/bin/scorebridge"))).toBe(false)
    expect(existsSync(at("etc/scorebridge/config.yaml"))).toBe(true)
    expect(existsSync(at("etc/scorebridge/credentials/token"))).toBe(true)
    expect(readFileSync(at("var/lib/private/scorebridge/outbox.sqlite"), "utf8")).toBe("pending entries")

    const purged = install(["--uninstall", "--purge"])
    expect(purged.status, purged.stderr).toBe(0)
    expect(existsSync(at("etc/scorebridge"))).toBe(false)
    expect(existsSync(at("var/lib/private/scorebridge"))).toBe(false)
  })

  it("--dry-run prints the actions and changes nothing", () => {
    const result = install(["--dry-run"], `${token}\n`)
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain(`+ install -m 0644 ${repoUnit} ${at("etc/systemd/system/scorebridge.service")}`)
    expect(result.stdout).toContain("write the token to")
    expect(result.stdout).not.toContain(token)
    expect(existsSync(at("opt"))).toBe(false)
    expect(existsSync(at("etc"))).toBe(false)
  })
})

describe("systemd/install.sh --prometheus-agent (a fleet's venue)", () => {
  const password = "office-secret-77c1"

  it("writes the agent's config for this venue and office, its root-only password and its unit; never prints the password", () => {
    const passwordFile = join(root, "rw-password")
    writeFileSync(passwordFile, `${password}\n`)
    const result = install(["--prometheus-agent", "https://metrics.office.test/api/v1/write", "--venue", "lyon-centre", "--remote-write-password-file", passwordFile], `${token}\n`)
    expect(result.status, result.stderr).toBe(0)
    const config = readFileSync(at("etc/scorebridge/prometheus-agent.yml"), "utf8")
    expect(config).toContain("- url: https://metrics.office.test/api/v1/write")
    expect(config).toContain("username: lyon-centre ")
    expect(config).not.toContain("example.com")
    expect(readFileSync(at("etc/scorebridge/credentials/remote-write-password"), "utf8")).toBe(password)
    expect(mode(at("etc/scorebridge/credentials/remote-write-password"))).toBe("600")
    expect(readFileSync(at("etc/systemd/system/scorebridge-prometheus-agent.service"), "utf8"))
      .toBe(readFileSync(join(import.meta.dirname, "../../systemd/scorebridge-prometheus-agent.service"), "utf8"))
    expect(result.stdout).toContain("(--root: skipped) systemctl enable scorebridge-prometheus-agent.service")
    expect(result.stdout + result.stderr).not.toContain(password)
    // Prometheus itself accepts what was written (the credential's path exists only under systemd).
    const check = spawnSync("promtool", ["check", "config", "--syntax-only", at("etc/scorebridge/prometheus-agent.yml")], { encoding: "utf8" })
    expect(check.status, check.stdout + check.stderr).toBe(0)
    expect(existsSync(at("opt/scorebridge/deploy/prometheus/scorebridge.rules.yml")) || existsSync(at("opt/scorebridge/deploy/prometheus/agent.yml"))).toBe(true)
  })

  it("refuses a half-given agent: no venue, no password, a URL that is not http(s); nothing is installed", () => {
    const passwordFile = join(root, "rw-password")
    writeFileSync(passwordFile, password)
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
      [["--prometheus-agent", "https://m.test/api/v1/write", "--remote-write-password-file", passwordFile], /needs --venue NAME/],
      [["--prometheus-agent", "https://m.test/api/v1/write", "--venue", "lyon"], /needs --remote-write-password-file/],
      [["--prometheus-agent", "m.test:9090", "--venue", "lyon", "--remote-write-password-file", passwordFile], /needs an http\(s\) URL/],
      [["--venue", "lyon"], /go with --prometheus-agent URL/]
    ]
    for (const [args, message] of cases) {
      const result = install(args, `${token}\n`)
      expect(result.status).not.toBe(0)
      expect(result.stderr).toMatch(message)
    }
    expect(existsSync(at("etc/scorebridge"))).toBe(false)
  })
})
