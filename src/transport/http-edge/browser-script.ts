import { join } from "node:path"
import type { BuildOptions } from "esbuild"

/**
 * A page's script: its TypeScript modules (a `browser/` folder with its own tsconfig, entry
 * main.ts) bundled by esbuild into one classic script for the browsers the pages support
 * (ES2020), with nothing global.
 *
 * Built (scripts/build.ts, what the package runs), the bundle is text esbuild's `define` puts in
 * place of the page's identifier: dist/ has no esbuild. From the sources (a checkout, Node's type
 * stripping) the identifier does not exist, and the modules are bundled once, on first use, with
 * the esbuild in node_modules, imported only then.
 */
export interface BrowserScript {
  /** The identifier the page's module reads and scripts/build.ts defines. */
  readonly identifier: string
  /** The modules' folder, from the repository's root: "src/status/browser". */
  readonly folder: string
}

const root = join(import.meta.dirname, "../../..")

/** How a page's modules are bundled, by the build and from the sources alike. */
export const browserScriptBuild = (script: BrowserScript, from = root): BuildOptions & { readonly write: false } => {
  const folder = join(from, script.folder)
  return {
    entryPoints: [join(folder, "main.ts")],
    tsconfig: join(folder, "tsconfig.json"),
    bundle: true,
    write: false,
    platform: "browser",
    format: "iife",
    target: "es2020",
    legalComments: "none",
    logLevel: "silent"
  }
}

const bundleOnce = async (script: BrowserScript): Promise<string> => {
  // A name, not a literal: the build must not try to bundle esbuild itself.
  const esbuildModule = "esbuild"
  const esbuild = (await import(esbuildModule)) as typeof import("esbuild")
  try {
    const [output] = (await esbuild.build(browserScriptBuild(script))).outputFiles
    if (output === undefined) throw new Error("esbuild wrote nothing")
    return output.text
  } finally {
    // esbuild's service is a child process: none is left running beside the server.
    await esbuild.stop()
  }
}

// One bundle at a time: each stops esbuild's service when done, which would end another's build.
let previous: Promise<unknown> = Promise.resolve()
const bundleFromSources = (script: BrowserScript): Promise<string> => {
  const next = previous.then(() => bundleOnce(script), () => bundleOnce(script))
  previous = next.catch(() => undefined)
  return next
}

const fromSources = new Map<string, Promise<string>>()

/** The script's text: the bundle the build defined (`defined`), or the sources bundled once. */
export const browserScriptText = (script: BrowserScript, defined: string | undefined): Promise<string> => {
  if (defined !== undefined) return Promise.resolve(defined)
  let bundled = fromSources.get(script.folder)
  if (bundled === undefined) {
    bundled = bundleFromSources(script).catch((cause: unknown) => {
      fromSources.delete(script.folder)
      throw new Error(`the page's script could not be bundled from ${script.folder} (${String(cause)}): run npm ci in the checkout, or run the built dist/`)
    })
    fromSources.set(script.folder, bundled)
  }
  return bundled
}
