import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { SimulatorControl } from "../../simulator/control-client.ts"
import { startSimulator } from "../../simulator/index.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { freePort } from "../../scripts/support/free-port.ts"
import { type Mosquitto, startMosquitto } from "../../scripts/support/mosquitto.ts"
import { openWriter, type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { type ScorebridgeProcess, startDaemon, startScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { asSetupUser, deviceForSetupUser, giveToSetupUser } from "../support/checkout-owner.ts"
import type { Resources } from "../support/resources.ts"
import { launchChromium } from "../status/chromium.ts"
import { expect } from "vitest"

/**
 * The whole setup stack as a venue has it, on loopback: the service simulator, mosquitto, a
 * console on a socat pty behind a /dev/serial/by-id-style name, the daemon as a process, and
 * `scorebridge setup` as a process pointed at the daemon's pid. The browser logs in with the
 * code the setup server printed, as the technician does.
 */
export const token = "setup-page-token"
export const companyKey = "setup-club"

export const servicePlaces = [
  { key: "court-1", name: "Court 1", sport: "volleyball" },
  { key: "court-2", name: "Court 2", sport: "basketball" },
  { key: "rink-1", name: "Rink 1", sport: "hockey" }
] as const

export interface Stack {
  readonly dir: string
  readonly configPath: string
  readonly control: SimulatorControl
  readonly broker: Mosquitto
  readonly console: PtyPair
  /** The stable name the page offers: a link to the pty the daemon opens. */
  readonly byIdPath: string
  readonly daemon: ScorebridgeProcess
  readonly setup: ScorebridgeProcess
  readonly url: string
  /** Where the page looks for adapters' stable names: a test links more ptys here. */
  readonly byIdDirectory: string
}

/** A config with comments a hand wrote and one court already there (a JSON board over MQTT), so the daemon runs before the page adds one. */
export const existingConfig = (o: { readonly baseUrl: string; readonly state: string; readonly statusPort: number; readonly mqtt: string; readonly morePlaces?: string }) => `# The venue's bridge: edited by hand and by the setup page.
service:
  baseUrl: ${o.baseUrl}   # the service simulator
  token:
    env: SCOREBRIDGE_TOKEN
  companyKey: ${companyKey}
  timeoutMs: 2000

stateDirectory: ${o.state}

status:
  listen: 127.0.0.1:${o.statusPort}   # the status page, on loopback only

mqtt:
  url: ${o.mqtt}

# Court 2's board publishes JSON on the broker; keep it as it is.
places:
  - key: court-2
    name: Court 2
    sport: basketball
    scoreboard:
      protocol: json
      mqtt:
        topics: [venue/court-2/board]   # the DIY board's topic
      options:
        framing: message
        fields: { home: score.home, away: score.away, period: quarter }
${o.morePlaces ?? ""}`

const startService = async (res: Resources) => {
  const sim = await startSimulator({
    port: 0,
    requestsPerSecond: 20,
    burst: 5,
    seed: { organizations: [{ key: companyKey, name: "Setup club", tokens: [token], places: servicePlaces.map((p) => ({ ...p })) }] }
  })
  res.defer(() => sim.close())
  return sim
}

export interface StackOptions {
  /** The machine's zone (TZ of the daemon and the setup server): the venue's clock. */
  readonly venueZone?: string
  /** More places after court-2, as YAML list items (`byIdPath` stands for the console's stable name). */
  readonly morePlaces?: (byIdPath: string) => string
}

/** Starts everything; `byIdName` is the adapter's stable name the page lists. */
export const startStack = async (
  res: Resources,
  name: string,
  byIdName = "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0",
  options: StackOptions = {}
): Promise<Stack> => {
  const dir = tempDir(name, res)
  const sim = await startService(res)
  const broker = await startMosquitto(dir)
  res.defer(() => broker.stop())
  const pty = await startPtyPair(dir, "console")
  res.defer(() => pty.stop())
  const byId = join(dir, "serial-by-id")
  mkdirSync(byId)
  const byIdPath = join(byId, byIdName)
  symlinkSync(pty.daemonPath, byIdPath)
  const configDir = join(dir, "etc")
  const state = join(dir, "state")
  mkdirSync(configDir)
  mkdirSync(state)
  const configPath = join(configDir, "config.yaml")
  const morePlaces = options.morePlaces?.(byIdPath)
  writeFileSync(configPath, existingConfig({ baseUrl: sim.url, state, statusPort: await freePort(), mqtt: broker.url, ...(morePlaces === undefined ? {} : { morePlaces }) }))
  // The credential the page stores is read as systemd would hand it over: the same directory.
  // SCOREBRIDGE_SETUP_SYSLOG=off: the page's saves stay out of the test machine's syslog.
  const env = { SCOREBRIDGE_TOKEN: token, CREDENTIALS_DIRECTORY: join(configDir, "credentials"), SCOREBRIDGE_SERIAL_BY_ID: byId, SCOREBRIDGE_SETUP_SYSLOG: "off",
    ...(options.venueZone === undefined ? {} : { TZ: options.venueZone }) }
  // Started as root, setup serves as the config's owner (nobody here): the daemon runs as the same
  // user, as a checkout's does, so the page may signal it and both may open the console's pty.
  giveToSetupUser(dir)
  deviceForSetupUser(pty.daemonPath)
  const daemon = startDaemon(configPath, { env, wrap: asSetupUser })
  res.defer(() => daemon.stop())
  await daemon.waitForLog(/status page on http/, { timeoutMs: 20_000 })
  const port = await freePort()
  const setup = startScorebridge(["setup", "--config", configPath, "--port", String(port), "--daemon-pid", String(daemon.process.pid)], { env, stderrAsLogs: true })
  res.defer(() => setup.stop())
  await eventually("the setup server's code", () => {
    if (setup.hasExited()) throw new Error(`scorebridge setup exited: ${setup.stdout()} ${setup.stderr()}`)
    return setupCode(setup)
  }, { timeoutMs: 20_000 }).catch((error: Error) => {
    throw new Error(`${error.message}; stdout: ${setup.stdout()}; stderr: ${setup.stderr()}`)
  })
  return { dir, configPath, control: new SimulatorControl(sim.url), broker, console: pty, byIdPath, daemon, setup, url: `http://127.0.0.1:${port}/`, byIdDirectory: byId }
}

/** The last `setup code: CODE` the server printed (each login uses one up and prints the next). */
export const setupCode = (setup: ScorebridgeProcess): string | undefined => {
  const codes = [...setup.stdout().matchAll(/^setup code: (\S+)$/gmu)]
  return codes.at(-1)?.[1]
}

/** A browser at `viewport` logged in with the current code, on the app page. */
export const loggedIn = async (
  res: Resources,
  stack: Stack,
  viewport: { readonly width: number; readonly height: number },
  viewer: { readonly timezoneId: string; readonly locale: string } = { timezoneId: "Europe/Zurich", locale: "en-US" }
): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await launchChromium(res, viewport, viewer)
  const page = await context.newPage()
  const problems: Array<string> = []
  page.on("pageerror", (error) => problems.push(error.message))
  // A failed request is shown by the page itself (and by the test's waits); a script error is not.
  page.on("console", (message) => { if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(message.text()) })
  res.defer(() => {
    if (problems.length > 0) throw new Error(`the page reported errors: ${problems.join("; ")}`)
  })
  await page.goto(stack.url)
  await page.fill("#code", setupCode(stack.setup)!)
  await page.click("button[type=submit]")
  await page.locator("#court-list").waitFor()
  return { context, page }
}

export const configText = (stack: Stack) => readFileSync(stack.configPath, "utf8")

/** A console repeating its board (as consoles do, several times a second) on the pty until the test's end. */
export const repeatingConsole = (res: Resources, stack: Stack, frames: () => ReadonlyArray<Uint8Array>) => {
  const writer = openWriter(stack.console.writerPath)
  // 5 a second: slow enough that what piles up while nobody reads (between the page's listening and the daemon's reload) stays far below the pty's buffer.
  const timer = setInterval(() => {
    for (const frame of frames()) writer.write(frame)
  }, 200)
  res.defer(() => {
    clearInterval(timer)
    writer.close()
  })
}

/** docs/setup-<step>-<desktop|phone>.png: the step's section at both widths (the page is laid out again at each). */
/**
 * Each step at a laptop's and a phone's width. They go to test-artifacts/setup/ (looked at after a
 * run); with SCOREBRIDGE_DOCS_SCREENSHOTS=1 to docs/, the pictures docs/install.md shows, so an
 * ordinary test run leaves the work tree as it was.
 */
export const screenshots = async (page: Page, step: string, selector: string) => {
  const docs = process.env["SCOREBRIDGE_DOCS_SCREENSHOTS"] === "1"
    ? join(import.meta.dirname, "../../docs")
    : join(import.meta.dirname, "../../test-artifacts/setup")
  for (const [width, height, name] of [[1280, 800, "desktop"], [390, 844, "phone"]] as const) {
    await page.setViewportSize({ width, height })
    await page.locator(selector).screenshot({ path: join(docs, `setup-${step}-${name}.png`), animations: "disabled" })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** What a new court is set up with, as the page names the choices (data attributes). */
export interface NewCourt {
  readonly place: string
  readonly maker: string
  readonly model: string
}

/**
 * A new court walked through steps 1–4 (the token stored, the court from the service's list, its
 * console by maker and model, the stack's adapter) to the listening step, once it shows LIVE.
 */
export const newCourtToListening = async (page: Page, stack: Stack, court: NewCourt) => {
  await page.click("#court-add")
  await page.fill("#token", token)
  await page.click("#token-form button[type=submit]")
  await expect.poll(() => page.textContent("#token-message")).toMatch(/^Token stored at/)
  await page.click("#step-checks [data-next=place]")
  await page.click(`[data-place="${court.place}"]`)
  await page.click(`[data-maker="${court.maker}"]`)
  await page.click(`[data-model="${court.model}"]`)
  await page.click("#console-facts button")
  await page.click(`[data-port="${stack.byIdPath}"]`)
  await page.click("#link-done")
  await expect.poll(() => page.textContent("#listen-badge"), { timeout: 15_000 }).toBe("LIVE")
}
