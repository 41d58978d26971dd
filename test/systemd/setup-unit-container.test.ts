import { describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import type { Started, SystemdContainer } from "../../scripts/support/systemd-container.ts"
import { installPackage, processStatus, unitExposure, unitProperty } from "../support/container-package.ts"
import { type PageAnswer, pageClient, recordingListener, sessionCookieOf } from "../support/container-http.ts"
import { builtPackage, packageBuildTimeoutMs } from "../support/debian-packages.ts"
import { systemdContainerPerFile } from "../support/systemd-container.ts"

/**
 * `scorebridge setup` run the documented way (as root, on a machine where the package was
 * installed with apt and systemd is PID 1: a throw-away container, test/support/systemd-container.ts),
 * then used over HTTP inside the container's own network as a browser and as an attacker would:
 * the serving process's identity and privileges as the kernel reports them, its unit's exposure
 * as that systemd loads it, what a page session can make it open, run or send, and the bridge's
 * reload after a save. The container's network is its own: the default ports (8380 for setup,
 * 8370 for the daemon's status page) are the container's, never the host's.
 */

const token = "tok-setup-unit-9c4e17"
const setupPort = 8380
const daemon = "scorebridge.service"
const setupUnit = "scorebridge-setup.service"
const codeLine = /^setup code: ([A-Z2-9]{4}-[A-Z2-9]{4})$/gm

let setup: Started
let ask: ReturnType<typeof pageClient>
let service: Awaited<ReturnType<typeof recordingListener>>
let newHost: Awaited<ReturnType<typeof recordingListener>>

/** A program that leaves a line in the journal if anything ever runs it. */
const evidenceProgram = "/usr/local/bin/scorebridge-test-evidence"
const evidence = "#!/bin/sh\nlogger -t scorebridge-test-evidence \"ran as uid $(id -u): $*\"\n"
const fifo = "/var/lib/scorebridge-test/buttons.fifo"

const machine = systemdContainerPerFile("setup-unit", async (container) => {
  await installPackage(container, await builtPackage("amd64"))
  service = await recordingListener(container, "127.0.0.1", 9101)
  newHost = await recordingListener(container, "127.0.0.2", 9102)
  const config = container.readFile("/etc/scorebridge/config.yaml")
  container.writeFile("/etc/scorebridge/config.yaml", config.replace("baseUrl: https://api.example.com", `baseUrl: ${service.url}`))
  const set = await container.run(["scorebridge-set-token"], { input: `${token}\n` })
  expect(set.code, `scorebridge-set-token: ${set.stdout}${set.stderr}`).toBe(0)
  container.writeFile(evidenceProgram, evidence, 0o755)
  expect((await container.run(["sh", "-c", `mkdir -p ${fifo.slice(0, fifo.lastIndexOf("/"))} && mkfifo -m 0666 ${fifo}`])).code).toBe(0)
  setup = container.start(["scorebridge", "setup"])
  await eventually("scorebridge setup to print its page and code", () => {
    if (setup.exited() && codes().length === 0) throw new Error(`scorebridge setup exited: ${setup.output()}`)
    return setup.output().includes(`setup page: http://127.0.0.1:${setupPort}/`) && codes().length > 0 ? true : undefined
  }, { timeoutMs: 30_000, intervalMs: 100 })
  ask = pageClient(container, setupPort)
}, { hookTimeoutMs: packageBuildTimeoutMs })

/** `scorebridge setup ARGS` run again inside, as root, to its end (the launcher prints and exits). */
const rerun = async (container: SystemdContainer, ...args: ReadonlyArray<string>) => {
  const ran = await container.run(["scorebridge", "setup", ...args], { timeoutMs: 30_000 })
  expect(ran.code, `scorebridge setup ${args.join(" ")}: ${ran.stdout}${ran.stderr}`).toBe(0)
  return ran.stdout
}

const codes = () => [...setup.output().matchAll(codeLine)].map((match) => match[1]!)

let cookie: string | undefined
/** One session for the file: the first printed code exchanged once. */
const session = async (): Promise<string> => {
  if (cookie !== undefined) return cookie
  const answer = await ask({ method: "POST", path: "/login", form: { code: codes().at(-1)! } })
  expect(answer.status, answer.body).toBe(303)
  cookie = sessionCookieOf(answer)
  return cookie
}

const api = async (method: string, path: string, json?: unknown): Promise<PageAnswer> => ask({ method, path, cookie: await session(), json, timeoutMs: 10_000 })
const jsonOf = (answer: PageAnswer): any => JSON.parse(answer.body)

/** The host PID (inside: the container's PID) of whatever listens on the setup port. */
const servingPid = async (container: SystemdContainer): Promise<number> => {
  const ss = await container.run(["ss", "-ltnpH", `sport = :${setupPort}`])
  const pid = /pid=(\d+)/.exec(ss.stdout)?.[1]
  if (pid === undefined) throw new Error(`nothing listens on ${setupPort} in the container: ${ss.stdout}${ss.stderr}\n${setup.output()}`)
  return Number(pid)
}

const journal = async (container: SystemdContainer, ...args: ReadonlyArray<string>) =>
  (await container.run(["journalctl", "--no-pager", "-o", "cat", ...args])).stdout

describe("scorebridge setup under systemd as PID 1 (package installed with apt, run as root)", () => {
  it("serves the page as the scorebridge-setup user, with no capability in its effective or bounding set", async (ctx) => {
    const container = machine.use(ctx)
    const status = await processStatus(container, await servingPid(container))
    const uid = Number(status["Uid"]!.split(/\s+/)[0])
    const user = (await container.run(["getent", "passwd", String(uid)])).stdout.split(":")[0]
    expect({ user, CapEff: status["CapEff"], CapBnd: status["CapBnd"], NoNewPrivs: status["NoNewPrivs"] }).toEqual({
      user: "scorebridge-setup",
      CapEff: "0000000000000000",
      CapBnd: "0000000000000000",
      NoNewPrivs: "1"
    })
    expect(uid).not.toBe(0)
  })

  it("runs in a unit whose systemd-analyze security exposure is no worse than the daemon's", async (ctx) => {
    const container = machine.use(ctx)
    const [bridge, page] = [await unitExposure(container, daemon), await unitExposure(container, setupUnit)]
    console.log(`systemd-analyze security inside the container: ${daemon} ${bridge}, ${setupUnit} ${page}`)
    expect(await unitProperty(container, setupUnit, "ActiveState")).toBe("active")
    expect(page).toBeLessThanOrEqual(bridge)
  })

  it("is started by the unit, not by the root CLI: the serving process is in scorebridge-setup.service's cgroup, and the CLI exited after printing", async (ctx) => {
    const container = machine.use(ctx)
    const pid = await servingPid(container)
    const cgroup = (await container.run(["cat", `/proc/${pid}/cgroup`])).stdout
    expect(cgroup).toMatch(/\/system\.slice\/scorebridge-setup\.service$/mu)
    expect(Number(await unitProperty(container, setupUnit, "MainPID"))).toBe(pid)
    await eventually("the root CLI to exit once it printed", () => setup.exited() || undefined, { timeoutMs: 10_000, intervalMs: 100 })
    expect(setup.output()).toMatch(/^setup page: http:\/\/127\.0\.0\.1:8380\/\nsetup page: http:\/\/\[::1\]:8380\/\nsetup code: [A-Z2-9]{4}-[A-Z2-9]{4}\n/u)
    expect(setup.output()).toContain("sudo scorebridge setup --stop")
  })

  it("logs in with the printed code over the container's loopback", async (ctx) => {
    machine.use(ctx)
    expect(await session()).toMatch(/=/)
    const config = await api("GET", "/api/config")
    expect(config.status, config.body).toBe(200)
  })

  it("run again: prints a fresh code (SIGUSR1 to the same process) that logs in, and the code before is refused", async (ctx) => {
    const container = machine.use(ctx)
    await session()
    const old = codes().at(-1)!
    const pid = await servingPid(container)
    const again = await rerun(container)
    const fresh = [...again.matchAll(codeLine)].map((match) => match[1]!)
    expect(fresh, again).toHaveLength(1)
    expect(fresh[0]).not.toBe(old)
    expect(again).toContain("The code printed before no longer logs in.")
    expect(await servingPid(container)).toBe(pid)
    const refused = await ask({ method: "POST", path: "/login", form: { code: old } })
    expect(refused.status, refused.body).toBe(401)
    const loggedIn = await ask({ method: "POST", path: "/login", form: { code: fresh[0]! } })
    expect(loggedIn.status, loggedIn.body).toBe(303)
  })

  it("refuses a button capture on a path that is not a character device (/etc/shadow, a FIFO), and answers at once", async (ctx) => {
    machine.use(ctx)
    for (const device of ["/etc/shadow", fifo]) {
      const answer = await api("POST", "/api/buttons/listen", { sources: { device } })
      expect(answer.status, `${device}: ${answer.body}`).toBeGreaterThanOrEqual(400)
      expect(answer.status, `${device}: ${answer.body}`).toBeLessThan(500)
    }
    // Nothing was left blocked on the FIFO: the rest of the page still answers.
    expect((await api("GET", "/api/config")).status).toBe(200)
  })

  it("refuses a GPIO capture that names a program, and never runs it", async (ctx) => {
    const container = machine.use(ctx)
    const answer = await api("POST", "/api/buttons/listen", { sources: { gpio: { chip: "/dev/gpiochip0", lines: [17], command: evidenceProgram } } })
    expect(answer.status, answer.body).toBeGreaterThanOrEqual(400)
    expect(answer.status, answer.body).toBeLessThan(500)
    // A capture, had it started, would have run `--version` at once; give a started one a moment's chance to show.
    await api("GET", "/api/config")
    expect(await journal(container, "-t", "scorebridge-test-evidence")).toBe("")
  })

  it("reloads the bridge after a save (same main PID, the reload in its journal)", async (ctx) => {
    const container = machine.use(ctx)
    const before = Number(await unitProperty(container, daemon, "MainPID"))
    expect(before).toBeGreaterThan(0)
    const reloadsBefore = (await journal(container, "-u", daemon)).split("reloaded /etc/scorebridge/config.yaml").length
    const config = jsonOf(await api("GET", "/api/config"))
    const place = { ...config.places[0], name: "Main gym (renamed by the setup page)" }
    const saved = await api("POST", "/api/save", { fingerprint: config.fingerprint, replaces: place.key, place, buttons: [] })
    expect(saved.status, saved.body).toBe(200)
    await eventually("the bridge to log a reload of its config", async () =>
      (await journal(container, "-u", daemon)).split("reloaded /etc/scorebridge/config.yaml").length > reloadsBefore || undefined, {
      timeoutMs: 20_000,
      intervalMs: 250
    })
    expect(Number(await unitProperty(container, daemon, "MainPID"))).toBe(before)
    // The page (no root) did not reload it: systemd did, through the path unit watching the renamed file.
    expect(await journal(container, "-u", "scorebridge-reload.service")).toMatch(/\S/u)
  })

  it("does not send the token to a host that a save put in service.baseUrl without the token", async (ctx) => {
    machine.use(ctx)
    // The checks do send the token to the configured service: what the new host must not get.
    expect((await api("GET", "/api/checks")).status).toBe(200)
    expect(service.requests().map((r) => r.authorization)).toContain(`Bearer ${token}`)
    const config = jsonOf(await api("GET", "/api/config"))
    const place = config.places[0]
    const saved = await api("POST", "/api/save", { fingerprint: config.fingerprint, replaces: place.key, place, buttons: [], service: { baseUrl: newHost.url } })
    // Saved (the token dropped) or refused (the token asked for again): either way the next checks must not carry it there.
    await api("GET", "/api/checks")
    await api("GET", "/api/service-places")
    expect(newHost.requests().filter((r) => r.authorization?.includes(token) === true)).toEqual([])
    // Not a save that failed for another reason: either the new address is in the file, or the refusal asks for the token.
    if (saved.status === 200) expect(jsonOf(await api("GET", "/api/config")).service.baseUrl).toBe(newHost.url)
    else expect(saved.body, "a refused save says the token is needed again").toMatch(/token/i)
  })

  it("restarts the bridge when the page stores a new token (scorebridge-token.path), which then holds that token", async (ctx) => {
    const container = machine.use(ctx)
    const before = Number(await unitProperty(container, daemon, "MainPID"))
    const newToken = "tok-setup-unit-renewed-51d2"
    const stored = await api("POST", "/api/token", { token: newToken })
    expect(stored.status, stored.body).toBe(200)
    await eventually("the bridge to run again under a new main PID", async () => {
      const now = Number(await unitProperty(container, daemon, "MainPID"))
      return now > 0 && now !== before ? true : undefined
    }, { timeoutMs: 20_000, intervalMs: 250 })
    expect(await journal(container, "-u", "scorebridge-token.service")).toMatch(/\S/u)
    // What the restarted bridge reads: systemd's copy of the credential, made at its start.
    expect((await container.run(["cat", "/run/credentials/scorebridge.service/token"])).stdout.trim()).toBe(newToken)
  })

  it("scorebridge setup --stop stops the unit: nothing listens on the page's port", async (ctx) => {
    const container = machine.use(ctx)
    expect(await rerun(container, "--stop")).toContain("stopped")
    expect(await unitProperty(container, setupUnit, "ActiveState")).toBe("inactive")
    expect((await container.run(["ss", "-ltnH", `sport = :${setupPort}`])).stdout.trim()).toBe("")
  })
})
