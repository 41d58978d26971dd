import { existsSync } from "node:fs"
import { chromium } from "playwright-core"
import { type Resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/** Debian's chromium package; playwright-core brings no browser of its own. */
export const executablePath = "/usr/bin/chromium"

const missing = !existsSync(executablePath)
if (missing) {
  const message = `${executablePath} is missing: install Debian's chromium package (apt-get install -y chromium) to run the browser tests`
  // Locally the tests may be skipped; in CI a missing browser is a failure, never a silent skip.
  if (process.env["CI"] !== undefined) throw new Error(message)
  console.warn(`SKIPPED: ${message}`)
}

/** For describe.skipIf: only ever true outside CI. */
export const withoutChromium = missing && process.env["CI"] === undefined

/** Where the browser thinks it is: a viewer's phone may be in another zone and language than the venue. */
export interface BrowserPlace {
  /** IANA zone, e.g. America/Los_Angeles. */
  readonly timezoneId?: string
  /** E.g. en-US, whose times are 12-hour. */
  readonly locale?: string
}

/** Headless Chromium with a fresh profile (playwright passes it as --user-data-dir), closed with `res`. */
export const launchChromium = async (res: Resources, viewport: { readonly width: number; readonly height: number }, place: BrowserPlace = {}) => {
  const context = await chromium.launchPersistentContext(tempDir("chromium", res), {
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport,
    deviceScaleFactor: 1,
    ...place
  })
  res.defer(() => context.close())
  return context
}
