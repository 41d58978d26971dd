import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import { isBuiltin } from "node:module"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { writeConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { startPtyPair, writeToPty } from "../../scripts/support/pty.ts"
import { runConfig, tennisOnSerial } from "../systemd/run-config.ts"
import { startDaemon } from "../../scripts/support/scorebridge-process.ts"
import { statusScript } from "../../src/status/status-script.ts"

const root = join(import.meta.dirname, "../..")
const bundle = join(root, "dist/scorebridge.mjs")
const node = join(root, "node_modules/.bin/node")

// npm ci builds the bundle (the prepare script); a working tree may not have run it yet.
const built = existsSync(bundle)
if (!built && process.env["CI"]) throw new Error(`${bundle} is missing: npm ci should have built it (npm run build)`)

const res = resources()
afterEach(() => res.release())

describe.skipIf(!built)("the bundled CLI (dist/scorebridge.mjs, what an installed bridge runs)", () => {
  it("lists every command", () => {
    const result = spawnSync(node, [bundle, "--help"], { encoding: "utf8" })
    expect(result.status).toBe(0)
    for (const command of ["run", "check", "doctor", "sniff", "capture", "learn", "replay", "overlay-preview", "outbox", "setup", "demo", "sim"]) {
      expect(result.stdout).toMatch(new RegExp(`\\n  ${command} `))
    }
  })

  // What a file loads as soon as it runs: itself and the chunks it imports statically (`from"./chunk-…"`,
  // `import"./chunk-…"`); `import("./…")` is loaded on demand.
  const staticallyLoaded = (file: string, into = new Set<string>()): Set<string> => {
    if (into.has(file)) return into
    into.add(file)
    const code = readFileSync(join(root, "dist", file), "utf8")
    for (const [, chunk] of code.matchAll(/(?:from|import)\s*"\.\/(chunk-[\w-]+\.mjs)"/gu)) staticallyLoaded(chunk!, into)
    return into
  }
  const contains = (files: Iterable<string>, marker: string) => [...files].filter((f) => readFileSync(join(root, "dist", f), "utf8").includes(marker))

  it("keeps the simulator, effect/cli and the other commands out of what the daemon loads", () => {
    // `run` as systemd starts it: the entry, then daemon.mjs (src/cli.ts), each with its static imports.
    const entry = readFileSync(join(root, "dist/scorebridge.mjs"), "utf8")
    const sides = [...entry.matchAll(/import\("\.\/([\w-]+\.mjs)"\)/gu)].map(([, file]) => file!)
    expect(sides).toContain("daemon.mjs")
    const daemon = staticallyLoaded("daemon.mjs", staticallyLoaded("scorebridge.mjs"))
    const cli = staticallyLoaded(sides.find((file) => file !== "daemon.mjs")!, staticallyLoaded("scorebridge.mjs"))
    const markers = {
      // a route only the simulator serves (sim and demo import it on demand)
      simulator: "/_control/faults",
      // effect/cli makes one when it loads (with ICU's grapheme data)
      "effect/cli": "Intl.Segmenter",
      // the descriptions of two other commands
      check: "Validate a config file and its secrets",
      "overlay-preview": "have the service render it on a 15 s test video",
      // the setup server's login refusal: the daemon never serves the setup page
      setup: "too many wrong setup codes"
    }
    for (const [what, marker] of Object.entries(markers)) {
      expect(contains(daemon, marker), `${what} in what the daemon loads`).toEqual([])
    }
    for (const what of ["effect/cli", "check", "overlay-preview", "setup"] as const) expect(contains(cli, markers[what]), what).toHaveLength(1)
    const all = readdirSync(join(root, "dist")).filter((f) => f.endsWith(".mjs"))
    expect(contains(all, markers.simulator)).toHaveLength(1)
  })

  it("loads Node's own modules with require(), not import: an import's facade loads undici, http2 and zlib", () => {
    // Node builds an ES facade for an imported built-in by reading every export; node:http's
    // WebSocket, CloseEvent and MessageEvent are getters that load undici (scripts/build.ts).
    const all = readdirSync(join(root, "dist")).filter((f) => f.endsWith(".mjs"))
    // The banner's one import of node:module (for createRequire) is written with single quotes.
    const imported = all.flatMap((f) => [...readFileSync(join(root, "dist", f), "utf8").matchAll(/(?:from|import)\s*"([^"]+)"/gu)].map(([, m]) => `${f}: ${m}`))
    expect(imported.filter((i) => isBuiltin(i.slice(i.indexOf(": ") + 2)))).toEqual([])
  })

  it("validates a shipped example like the sources do", () => {
    const result = spawnSync(node, [bundle, "check", "--config", join(root, "config/demo.yaml")], {
      encoding: "utf8",
      env: { ...process.env, SCOREBRIDGE_TOKEN: "demo-token" }
    })
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
  })

  it("runs the demo end to end: serial-free pipeline, SQLite outbox, HTTP, status page", () => {
    const result = spawnSync(node, [bundle, "demo", "--points", "2", "--point-every-ms", "600"], { encoding: "utf8", timeout: 30_000 })
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("The simulator accepted 3 of 3 score entries")
  })

  it("runs the daemon as installed (bin/scorebridge run: the bundle, --jitless): a point on a pty reaches the service", async () => {
    const dir = tempDir("bundle-run", res)
    const token = "bundle-token"
    const sim = await startSimulator({
      port: 0,
      seed: { organizations: [{ key: "o", name: "o", tokens: [token], places: [{ key: "court-1", name: "Court 1", sport: "tennis" }] }] }
    })
    res.defer(() => sim.close())
    const control = new SimulatorControl(sim.url)
    await control.startEvent("court-1", { homeTeam: "A", awayTeam: "B", name: "match" })
    const board = await startPtyPair(dir, "court-1")
    res.defer(() => board.stop())
    const state = join(dir, "state")
    mkdirSync(state)
    const config = join(dir, "config.yaml")
    const statusPort = await freePort()
    writeConfig(config, runConfig({ baseUrl: sim.url, stateDirectory: state, statusPort, places: [tennisOnSerial("court-1", board.daemonPath)] }))
    // Not from source: the form systemd runs, with the flags bin/scorebridge gives the daemon.
    const daemon = startDaemon(config, { env: { SCOREBRIDGE_TOKEN: token, SCOREBRIDGE_FROM_SOURCE: "" } })
    res.defer(() => daemon.kill())
    await daemon.waitForLog(/serial port connected/)
    const flags = readFileSync(`/proc/${daemon.process.pid}/cmdline`, "utf8").split("\0")
    expect(flags).toContain("--jitless")
    expect(flags.some((f) => f.endsWith("dist/scorebridge.mjs"))).toBe(true)
    const environment = readFileSync(`/proc/${daemon.process.pid}/environ`, "utf8").split("\0")
    expect(environment).toEqual(expect.arrayContaining(["MALLOC_ARENA_MAX=2", "MALLOC_MMAP_THRESHOLD_=32768"]))

    writeToPty(board.writerPath, "00:01 15-0 0-0\n")
    const entry = await eventually("the entry at the simulator", async () =>
      (await control.requests({ method: "POST", status: 200 })).find((r) => r.path.endsWith("/score")), { timeoutMs: 10_000 })
    expect(entry.body).toMatchObject({ scoreValue: { pointScore: [1, 0] } })
    // The status page's script as the build bundled it into dist/ (scripts/build.ts), the same as the sources make it.
    const script = await fetch(`http://127.0.0.1:${statusPort}/status.js`)
    expect(script.status).toBe(200)
    expect(await script.text()).toBe(await statusScript())
  }, 30_000)
})
