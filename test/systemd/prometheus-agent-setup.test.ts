import { spawnSync } from "node:child_process"
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * systemd/prometheus-agent-setup.sh, as a checkout runs it and as the package installs it
 * (/usr/sbin/scorebridge-prometheus-agent-setup), against a temporary root: no systemctl.
 */
const repo = join(import.meta.dirname, "../..")
const script = join(repo, "systemd/prometheus-agent-setup.sh")
const office = "https://metrics.office.test/api/v1/write"
const password = "office-secret-77c1"

let dir: string
let root: string
let passwordFile: string
beforeEach(() => {
  dir = tempDir("agent-setup")
  root = join(dir, "root")
  mkdirSync(root)
  passwordFile = join(dir, "rw-password")
  writeFileSync(passwordFile, `${password}\r\n`)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const commandPath = (name: string) => spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim()
const bash = commandPath("bash")

const setup = (args: ReadonlyArray<string>, options: { readonly from?: string; readonly env?: NodeJS.ProcessEnv } = {}) =>
  spawnSync(bash, [options.from ?? script, ...args], { encoding: "utf8", timeout: 30_000, env: options.env ?? process.env })

const venueArgs = (url = office, venue = "lyon-centre") => ["--url", url, "--venue", venue, "--password-file", passwordFile]
const at = (path: string) => join(root, path)
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)
const agentConfig = () => readFileSync(at("etc/scorebridge/prometheus-agent.yml"), "utf8")

/** The package's layout: the script in usr/sbin, deploy/ in usr/share/scorebridge (scripts/package.ts). */
const packagedCopy = (template: string): string => {
  const installed = join(dir, "pkg/usr/sbin/scorebridge-prometheus-agent-setup")
  mkdirSync(dirname(installed), { recursive: true })
  copyFileSync(script, installed)
  chmodSync(installed, 0o755)
  const shared = join(dir, "pkg/usr/share/scorebridge/deploy/prometheus/agent.yml")
  mkdirSync(dirname(shared), { recursive: true })
  writeFileSync(shared, template)
  return installed
}

describe("prometheus-agent-setup.sh --root", () => {
  it("writes the agent's config for this venue and office and its root-only password; never prints the password, installs no unit", () => {
    const result = setup([...venueArgs(), "--root", root])
    expect(result.status, result.stderr).toBe(0)
    const config = agentConfig()
    expect(config).toContain(`- url: ${office} `)
    expect(config).toContain("username: lyon-centre ")
    expect(config).not.toContain("example.com")
    expect(mode(at("etc/scorebridge/prometheus-agent.yml"))).toBe("644")
    // One line, no CR: the password file a Windows editor wrote still authenticates.
    expect(readFileSync(at("etc/scorebridge/credentials/remote-write-password"), "utf8")).toBe(password)
    expect(mode(at("etc/scorebridge/credentials/remote-write-password"))).toBe("600")
    expect(mode(at("etc/scorebridge/credentials"))).toBe("700")
    expect(result.stdout + result.stderr).not.toContain(password)
    // Without --unit the unit is the package's, in /lib/systemd/system: nothing goes to /etc/systemd.
    expect(existsSync(at("etc/systemd"))).toBe(false)
    expect(result.stdout).toContain("(--root: skipped) systemctl enable scorebridge-prometheus-agent.service")
    expect(result.stdout).toContain("(--root: skipped) systemctl restart scorebridge-prometheus-agent.service")
    // Prometheus itself accepts what was written (the credential's path exists only under systemd).
    const check = spawnSync("promtool", ["check", "config", "--syntax-only", at("etc/scorebridge/prometheus-agent.yml")], { encoding: "utf8" })
    expect(check.status, check.stdout + check.stderr).toBe(0)
  })

  it("a second run replaces URL, venue and password; a URL's query string reaches the config as it is", () => {
    expect(setup([...venueArgs(), "--root", root]).status).toBe(0)
    writeFileSync(passwordFile, "rotated-secret\n")
    const url = "https://metrics2.office.test/api/v1/write?tenant=a&region=eu|b"
    const second = setup([...venueArgs(url, "lyon.court_2"), "--root", root])
    expect(second.status, second.stderr).toBe(0)
    expect(agentConfig()).toContain(`- url: ${url} `)
    expect(agentConfig()).toContain("username: lyon.court_2 ")
    expect(agentConfig()).not.toContain("lyon-centre")
    expect(readFileSync(at("etc/scorebridge/credentials/remote-write-password"), "utf8")).toBe("rotated-secret")
    expect(mode(at("etc/scorebridge/credentials/remote-write-password"))).toBe("600")
  })

  it("keeps the modes of directories it finds (the package's, install.sh's)", () => {
    mkdirSync(at("etc/scorebridge/credentials"), { recursive: true })
    chmodSync(at("etc/scorebridge"), 0o750)
    expect(setup([...venueArgs(), "--root", root]).status).toBe(0)
    expect(mode(at("etc/scorebridge"))).toBe("750")
  })

  it("--unit installs that unit in /etc/systemd/system; --agent-config takes another template", () => {
    const template = join(dir, "agent.yml")
    writeFileSync(template, readFileSync(join(repo, "deploy/prometheus/agent.yml"), "utf8").replace("scrape_interval: 30s", "scrape_interval: 1m"))
    const unit = join(repo, "systemd/scorebridge-prometheus-agent.service")
    const result = setup([...venueArgs(), "--root", root, "--unit", unit, "--agent-config", template])
    expect(result.status, result.stderr).toBe(0)
    expect(readFileSync(at("etc/systemd/system/scorebridge-prometheus-agent.service"), "utf8")).toBe(readFileSync(unit, "utf8"))
    expect(agentConfig()).toContain("scrape_interval: 1m")
    expect(agentConfig()).toContain("username: lyon-centre ")
  })

  it("--dry-run prints the actions and changes nothing", () => {
    const result = setup([...venueArgs(), "--root", root, "--dry-run"])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain(`+ write ${at("etc/scorebridge/prometheus-agent.yml")} (remote write to ${office} as lyon-centre)`)
    expect(result.stdout).toContain("write the remote-write password to")
    expect(result.stdout).not.toContain(password)
    expect(existsSync(at("etc"))).toBe(false)
  })
})

describe("installed by the package as /usr/sbin/scorebridge-prometheus-agent-setup", () => {
  it("takes its template from /usr/share/scorebridge/deploy/prometheus/agent.yml and installs no unit", () => {
    const template = readFileSync(join(repo, "deploy/prometheus/agent.yml"), "utf8").replace("job_name: scorebridge", "job_name: scorebridge-packaged")
    const installed = packagedCopy(template)
    const result = setup([...venueArgs(), "--root", root], { from: installed })
    expect(result.status, result.stderr).toBe(0)
    expect(agentConfig()).toContain("job_name: scorebridge-packaged")
    expect(agentConfig()).toContain(`- url: ${office} `)
    expect(existsSync(at("etc/systemd"))).toBe(false)
    const help = setup(["--help"], { from: installed })
    expect(help.status).toBe(0)
    expect(help.stdout).toContain("sudo scorebridge-prometheus-agent-setup --url URL --venue NAME --password-file FILE")
  })

  it("without a template beside it, asks for --agent-config and writes nothing", () => {
    const installed = packagedCopy("")
    rmSync(join(dir, "pkg/usr/share"), { recursive: true })
    const result = setup([...venueArgs(), "--root", root], { from: installed })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("scorebridge-prometheus-agent-setup: no agent.yml template")
    expect(result.stderr).toContain("--agent-config FILE")
    expect(existsSync(at("etc"))).toBe(false)
  })
})

describe("prometheus-agent-setup.sh refuses bad input and changes nothing", () => {
  it.each([
    ["no URL", ["--venue", "lyon", "--password-file", "PW"], /--url needs an http\(s\) URL/],
    ["a URL that is not http(s)", ["--url", "m.test:9090", "--venue", "lyon", "--password-file", "PW"], /--url needs an http\(s\) URL/],
    ["a URL with a space", ["--url", "https://m.test/api v1", "--venue", "lyon", "--password-file", "PW"], /--url needs an http\(s\) URL/],
    ["no venue", ["--url", office, "--password-file", "PW"], /needs --venue NAME/],
    ["a venue with a space", ["--url", office, "--venue", "lyon centre", "--password-file", "PW"], /needs --venue NAME \(1–64 letters/],
    ["a venue of 65 characters", ["--url", office, "--venue", "v".repeat(65), "--password-file", "PW"], /needs --venue NAME/],
    ["a venue that starts with '-'", ["--url", office, "--venue", "-lyon", "--password-file", "PW"], /needs --venue NAME/],
    ["no password file", ["--url", office, "--venue", "lyon"], /needs --password-file FILE/],
    ["a password file that is not there", ["--url", office, "--venue", "lyon", "--password-file", "/nonexistent/pw"], /cannot read \/nonexistent\/pw/],
    ["an unknown option", ["--url", office, "--venue", "lyon", "--password-file", "PW", "--password", password], /unknown option: --password/]
  ] as const)("%s", (_, args, message) => {
    const result = setup([...args.map((arg) => (arg === "PW" ? passwordFile : arg)), "--root", root])
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(message)
    expect(result.stdout + result.stderr).not.toContain(password)
    expect(existsSync(at("etc"))).toBe(false)
  })

  it("on the machine itself (no --root), asks for Debian's prometheus when it is not installed", () => {
    // A PATH with only what the script needs before that check: no prometheus, no systemctl.
    const bin = join(dir, "bin")
    mkdirSync(bin)
    symlinkSync(commandPath("dirname"), join(bin, "dirname"))
    // --dry-run: were the check broken, this run would still not touch the machine's /etc.
    const result = setup([...venueArgs(), "--dry-run"], { env: { PATH: bin } })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("the agent is Debian's prometheus: apt-get install prometheus")
  })

  it("--check only checks", () => {
    const result = setup([...venueArgs(), "--root", root, "--check"])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toBe("")
    expect(existsSync(at("etc"))).toBe(false)
  })
})
