import { chmodSync, chownSync, copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs"
import { connect } from "node:net"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type ScorebridgeProcess, startScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type Resources, resources } from "../support/resources.ts"
import { ask } from "./setup-http.ts"
import { printedCodes } from "./setup-process-support.ts"

/**
 * `sudo scorebridge setup --config FILE` from a checkout, as root (this suite's machines run it
 * as root): the page is served by the config's owner, here nobody (65534), and a config whose
 * owner cannot be trusted is refused before anything listens. What the kernel says about the
 * serving process is read from /proc, not from what the process says about itself.
 */
const res = resources()
afterEach(() => res.release())

const nobody = 65534
const asRoot = process.getuid?.() === 0
const example = join(import.meta.dirname, "../../config/bodet-hall-tcp.yaml")

/** `<tmp>/scorebridge-NAME-x/etc/config.yaml`, a copy of the example; every parent traversable by nobody. */
const configIn = (r: Resources, name: string, owner: number): string => {
  const dir = tempDir(name, r)
  chmodSync(dir, 0o755)
  const etc = join(dir, "etc")
  mkdirSync(etc, { mode: 0o755 })
  const config = join(etc, "config.yaml")
  copyFileSync(example, config)
  chownSync(etc, owner, owner)
  chownSync(config, owner, owner)
  return config
}

const startSetup = async (r: Resources, config: string, env: Readonly<Record<string, string>> = {}) => {
  const port = await freePort()
  const setup = startScorebridge(["setup", "--config", config, "--port", String(port), "--unit", "scorebridge-test.service"], { env })
  r.defer(() => setup.stop())
  return { setup, port }
}

/** Until it either prints its first code (it serves) or exits. */
const outcome = (setup: ScorebridgeProcess) =>
  eventually("setup to serve or exit", () => setup.hasExited() ? "exited" : printedCodes(setup).length > 0 ? "serving" : undefined, { timeoutMs: 20_000 })

const refusedConnection = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", () => resolve(true))
  })

/** `Name: values` of every thread of `pid`, as the kernel reports them. */
const threadFields = (pid: number, name: string): ReadonlyArray<string> =>
  readdirSync(`/proc/${pid}/task`).map((tid) => {
    const line = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8").split("\n").find((candidate) => candidate.startsWith(`${name}:`))
    return `${tid} ${line?.slice(name.length + 1).trim().split(/\s+/u).join(" ")}`
  })

const expectRefused = async (config: string, message: RegExp, env: Readonly<Record<string, string>> = {}) => {
  const { setup, port } = await startSetup(res, config, env)
  expect(await outcome(setup), setup.stdout()).toBe("exited")
  expect((await setup.exited).code).toBe(1)
  expect(setup.stderr()).toMatch(message)
  expect(printedCodes(setup)).toEqual([])
  expect(await refusedConnection(port)).toBe(true)
}

describe.skipIf(!asRoot)("sudo scorebridge setup --config FILE from a checkout (needs root: it starts setup as root and watches it drop)", () => {
  it("a config owned by nobody: every thread of the serving process is nobody's (uid, gid, saved, fs) with no capability, and it serves", async () => {
    const config = configIn(res, "checkout-drop-nobody", nobody)
    const { setup, port } = await startSetup(res, config)
    expect(await outcome(setup), setup.stderr()).toBe("serving")
    const pid = setup.process.pid!
    const threads = readdirSync(`/proc/${pid}/task`).length
    expect(threads).toBeGreaterThan(1)
    for (const [name, value] of [["Uid", `${nobody} ${nobody} ${nobody} ${nobody}`], ["Gid", `${nobody} ${nobody} ${nobody} ${nobody}`], ["CapEff", "0000000000000000"], ["CapPrm", "0000000000000000"], ["CapAmb", "0000000000000000"]] as const) {
      expect(threadFields(pid, name), name).toEqual(readdirSync(`/proc/${pid}/task`).map((tid) => `${tid} ${value}`))
    }
    expect(threadFields(pid, "Groups")).toEqual(readdirSync(`/proc/${pid}/task`).map((tid) => `${tid} ${nobody}`))
    expect(setup.stdout()).toContain(`setup runs as nobody (uid ${nobody}), the owner of ${config}: root was given up before anything was opened`)
    const page = await ask(port, { path: "/" })
    expect(page.status).toBe(200)
  })

  it("a config owned by root: exit 1 with what to do, nothing listening", async () => {
    const config = configIn(res, "checkout-drop-root", 0)
    await expectRefused(config, new RegExp(
      `^${config.replaceAll(".", "\\.")} is owned by root: the setup page will not run as root\\. Give the file to the user who runs setup \\(sudo chown USER .* and its directory\\), or install the package \\(sudo scorebridge setup then runs it as the scorebridge-setup user\\)$`,
      "mu"
    ))
  })

  it("a symbolic link to nobody's config: refused, nothing listening", async () => {
    const config = configIn(res, "checkout-drop-link", nobody)
    const link = join(config, "../linked.yaml")
    symlinkSync(config, link)
    await expectRefused(link, /linked\.yaml is a symbolic link: sudo scorebridge setup runs the page as the config's owner and follows no link to find it/u)
  })

  it("a config owned by a uid /etc/passwd does not name: refused, nothing listening", async () => {
    const config = configIn(res, "checkout-drop-unnamed", 54_321)
    await expectRefused(config, /is owned by uid 54321, which \/etc\/passwd does not name: give the file and its directory to a user of this machine/u)
  })

  it("nobody's config in a directory others may write and nobody does not own: refused, nothing listening", async () => {
    const config = configIn(res, "checkout-drop-open-dir", nobody)
    const etc = join(config, "..")
    chownSync(etc, 0, 0)
    chmodSync(etc, 0o777)
    await expectRefused(config, /etc may be written by others than .*config\.yaml's owner \(uid 65534\)/u)
  })

  it("nobody's config with libuv's io_uring asked for (it would keep root's rights past setuid): refused, nothing listening", async () => {
    const config = configIn(res, "checkout-drop-io-uring", nobody)
    await expectRefused(config, /^UV_USE_IO_URING is set: libuv's io_uring would keep root's rights after the drop \(CVE-2024-22017\)\. Unset it and start setup again$/mu, { UV_USE_IO_URING: "1" })
  })
})
