import { type BrowserScript, browserScriptText } from "../../transport/http-edge/browser-script.ts"

/**
 * /setup.js: the page's TypeScript modules (browser/, entry main.ts) bundled into one classic
 * script (browser-script.ts: defined into dist/ by scripts/build.ts, bundled on first use from
 * the sources).
 */
declare const SCOREBRIDGE_SETUP_SCRIPT: string | undefined

export const setupBrowserScript: BrowserScript = { identifier: "SCOREBRIDGE_SETUP_SCRIPT", folder: "src/setup/page/browser" }

export const setupScript = (): Promise<string> =>
  browserScriptText(setupBrowserScript, typeof SCOREBRIDGE_SETUP_SCRIPT === "string" ? SCOREBRIDGE_SETUP_SCRIPT : undefined)
