import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Fiber } from "effect"
import { build } from "esbuild"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { startScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import type { ConfigView } from "../../src/setup/config/config-view.ts"
import { pageRoutes } from "../../src/setup/page/page-routes.ts"
import { setupBrowserScript, setupScript } from "../../src/setup/page/setup-script.ts"
import { browserScriptBuild } from "../../src/transport/http-edge/browser-script.ts"
import { ok, type SetupRoute } from "../../src/setup/setup-route.ts"
import { serveSetup } from "../../src/setup/setup-server.ts"
import type { ConsolesAnswer } from "../../src/setup/steps/consoles.ts"
import { launchChromium } from "../status/chromium.ts"
import { resources } from "../support/resources.ts"
import { giveToSetupUser } from "../support/checkout-owner.ts"
import { ask, cookieFrom } from "./setup-http.ts"

/**
 * /setup.js is the page's TypeScript modules (src/setup/page/browser/) bundled by esbuild: from the
 * sources on first use, and by scripts/build.ts into dist/, which serves it with no esbuild at all.
 * Nothing of it is global: the old script's functions were names any other script could call.
 */
const repo = join(import.meta.dirname, "../..")
const node = join(repo, "node_modules/.bin/node")
const artifacts = join(repo, "test-artifacts/setup-script-modules")
const res = resources()
afterEach(() => res.release())
afterAll(() => rmSync(artifacts, { recursive: true, force: true }))

const config: ConfigView = {
  path: "/etc/scorebridge/config.yaml",
  fingerprint: "absent",
  valid: true,
  problems: [],
  tokenStored: false,
  service: null,
  mqtt: null,
  status: null,
  places: [{ key: "court-1", scoreboard: { protocol: "stramatel", serial: { path: "/dev/serial/by-id/usb-console" } } }],
  buttons: [],
  reload: "none",
  venueClock: { timeZone: "UTC", utcOffsetMinutes: 0 }
}
const consoles: ConsolesAnswer = { consoles: [] }
const routes: ReadonlyArray<SetupRoute> = [
  ...pageRoutes(),
  { method: "GET", path: "/api/config", handle: () => Effect.succeed(ok(config)) },
  { method: "GET", path: "/api/consoles", handle: () => Effect.succeed(ok(consoles)) }
]

/** The setup server in this process with the page and the two answers its start reads. */
const servePage = async () => {
  const port = await freePort()
  const codes: Array<string> = []
  const announce = { address: () => Effect.void, code: (code: string) => Effect.sync(() => codes.push(code)) }
  const fiber = Effect.runFork(Effect.scoped(serveSetup({ port, addresses: ["127.0.0.1"], hostname: "venue-pc", routes, announce })))
  res.defer(() => Effect.runPromise(Fiber.interrupt(fiber)))
  await eventually("the first code", () => codes[0])
  return { port, code: () => codes.at(-1)! }
}

describe("the setup page's script, bundled from TypeScript modules", () => {
  it("is one ES2020 classic script made only of the page's modules and the venue clock's style: no Node, no Effect", async () => {
    const text = await setupScript()
    expect(text.startsWith("\"use strict\";\n(() => {"), text.slice(0, 80)).toBe(true)
    expect(text).not.toMatch(/\bwindow\.[\w$]+\s*=[^=]|globalThis|\bon(click|change|submit)\b|innerHTML/u)
    const result = await build({ ...browserScriptBuild(setupBrowserScript, repo), metafile: true })
    expect(Object.keys(result.metafile.inputs).filter((input) => !input.startsWith("src/setup/page/browser/"))).toEqual(["src/timeline/time-ticks.ts"])
    expect(result.outputFiles[0]!.text).toBe(text)
  })

  it("leaves no name in the page's global scope: Chromium finds none of its functions or its state", async () => {
    const { port, code } = await servePage()
    const context = await launchChromium(res, { width: 1024, height: 768 })
    const page = await context.newPage()
    const problems: Array<string> = []
    page.on("pageerror", (error) => problems.push(error.message))
    await page.goto(`http://127.0.0.1:${port}/`)
    await page.fill("#code", code())
    await page.click("button[type=submit]")
    await page.locator("[data-court=court-1]").waitFor()
    const names = ["state", "api", "loadConfig", "showCourts", "goTo", "entries", "stopPolling", "start", "wire", "$", "el"]
    const global: Array<string> = []
    for (const name of names) if ((await page.evaluate(`typeof ${name}`)) !== "undefined") global.push(name)
    expect(global).toEqual([])
    expect(problems).toEqual([])
  })

  it("is served by the built bundle (scripts/build.ts) as the sources make it, with no esbuild to import", async () => {
    mkdirSync(artifacts, { recursive: true })
    const dist = join(artifacts, "dist")
    const built = spawnSync(node, [join(repo, "scripts/build.ts"), dist], { cwd: repo, encoding: "utf8", timeout: 120_000 })
    expect(built.status, built.stderr).toBe(0)
    // The package has no esbuild: an import of it here fails as it would there.
    const noEsbuild = join(artifacts, "no-esbuild.mjs")
    writeFileSync(noEsbuild, `import { registerHooks } from "node:module"
registerHooks({ resolve(specifier, context, next) {
  if (specifier === "esbuild" || specifier.startsWith("esbuild/")) throw new Error("no esbuild in the package")
  return next(specifier, context)
} })
`)
    const dir = tempDir("setup-script-dist", res)
    mkdirSync(join(dir, "etc"))
    const configPath = join(dir, "etc/config.yaml")
    writeFileSync(configPath, "places: []\n")
    giveToSetupUser(dir)
    const port = await freePort()
    const setup = startScorebridge(["setup", "--config", configPath, "--port", String(port)], {
      env: { SCOREBRIDGE_SETUP_SYSLOG: "off" },
      wrap: (_command, args) => [node, ["--import", noEsbuild, join(dist, "scorebridge.mjs"), ...args]]
    })
    res.defer(() => setup.stop())
    const code = await eventually("the setup code", () => {
      if (setup.hasExited()) throw new Error(`setup exited: ${setup.stdout()} ${setup.stderr()}`)
      return /^setup code: (\S+)$/mu.exec(setup.stdout())?.[1]
    }, { timeoutMs: 20_000 })
    const login = await ask(port, { method: "POST", path: "/login", form: { code } })
    expect(login.status, login.body).toBe(303)
    const served = await ask(port, { path: "/setup.js", cookie: cookieFrom(login) })
    expect(served.status, served.body).toBe(200)
    expect(served.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(served.body).toBe(await setupScript())
  })
})
