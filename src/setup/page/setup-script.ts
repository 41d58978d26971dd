import { join } from "node:path"
import type { BuildOptions } from "esbuild"

/**
 * /setup.js: the page's TypeScript modules (browser/, entry main.ts) bundled by esbuild into one
 * classic script for the browsers the page supports (ES2020), with nothing global.
 *
 * Built (scripts/build.ts, what the package runs), the bundle is the text esbuild's `define` puts in
 * place of the identifier below: dist/ has no esbuild. From the sources (a checkout, Node's type
 * stripping) the identifier does not exist, and the modules are bundled once, on first use, with
 * the esbuild in node_modules, imported only then.
 */
declare const SCOREBRIDGE_SETUP_SCRIPT: string | undefined

/** The identifier scripts/build.ts defines. */
export const setupScriptIdentifier = "SCOREBRIDGE_SETUP_SCRIPT"

/** How the page's modules are bundled, by the build and from the sources alike. */
export const setupScriptBuild = (root: string): BuildOptions & { readonly write: false } => {
  const browser = join(root, "src/setup/page/browser")
  return {
    entryPoints: [join(browser, "main.ts")],
    tsconfig: join(browser, "tsconfig.json"),
    bundle: true,
    write: false,
    platform: "browser",
    format: "iife",
    target: "es2020",
    legalComments: "none",
    logLevel: "silent"
  }
}

const bundleFromSources = async (): Promise<string> => {
  // A name, not a literal: the build must not try to bundle esbuild itself (it is external there too).
  const esbuildModule = "esbuild"
  const esbuild = (await import(esbuildModule)) as typeof import("esbuild")
  try {
    const result = await esbuild.build(setupScriptBuild(join(import.meta.dirname, "../../..")))
    const [output] = result.outputFiles
    if (output === undefined) throw new Error("esbuild wrote nothing")
    return output.text
  } finally {
    // esbuild's service is a child process: none is left running beside the setup server.
    await esbuild.stop()
  }
}

let fromSources: Promise<string> | undefined

/** The script's text: the bundle the build defined, or the sources bundled once. */
export const setupScript = (): Promise<string> => {
  if (typeof SCOREBRIDGE_SETUP_SCRIPT === "string") return Promise.resolve(SCOREBRIDGE_SETUP_SCRIPT)
  fromSources ??= bundleFromSources().catch((cause: unknown) => {
    fromSources = undefined
    throw new Error(`the setup page's script could not be bundled from src/setup/page/browser (${String(cause)}): run npm ci in the checkout, or run the built dist/`)
  })
  return fromSources
}
