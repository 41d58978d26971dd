import { type BrowserScript, browserScriptText } from "../transport/http-edge/browser-script.ts"

/**
 * /status.js: the status page's TypeScript modules (browser/, entry main.ts) bundled into one
 * classic script (browser-script.ts: defined into dist/ by scripts/build.ts, bundled on first use
 * from the sources). It fetches /status.json every 2 s and draws one card per place.
 */
declare const SCOREBRIDGE_STATUS_SCRIPT: string | undefined

export const statusBrowserScript: BrowserScript = { identifier: "SCOREBRIDGE_STATUS_SCRIPT", folder: "src/status/browser" }

export const statusScript = (): Promise<string> =>
  browserScriptText(statusBrowserScript, typeof SCOREBRIDGE_STATUS_SCRIPT === "string" ? SCOREBRIDGE_STATUS_SCRIPT : undefined)
