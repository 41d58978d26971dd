// Bundles the CLI into ES modules, dist/scorebridge.mjs and the chunks beside it: no type
// stripping at start-up and only the parts of `effect` the bridge uses. Measured on the mini-PC
// class machine: start-up 0.4 s instead of 1.0 s, peak RSS of `--help` 105 MB instead of 160 MB
// (see docs/performance.md).
import { readdirSync, rmSync } from "node:fs"
import { isBuiltin } from "node:module"
import { basename, join } from "node:path"
import { build, type Plugin } from "esbuild"
import { setupBrowserScript } from "../src/setup/page/setup-script.ts"
import { statusBrowserScript } from "../src/status/status-script.ts"
import { browserScriptBuild } from "../src/transport/http-edge/browser-script.ts"

const root = join(import.meta.dirname, "..")
// Another directory builds a copy elsewhere: the garbage fault test lays out an installed bridge
// from the sources under test, leaving the work tree's dist/ alone.
// `--version V` bundles V as the bridge's version (src/domain/version.ts): scripts/package.ts
// builds packages of other versions with it, e.g. the second version an upgrade test installs.
const versionFlag = process.argv.indexOf("--version")
const version = versionFlag === -1 ? undefined : process.argv[versionFlag + 1]
const positional = process.argv.slice(2).filter((arg, i, all) => arg !== "--version" && all[i - 1] !== "--version")
const outdir = positional[0] ?? join(root, "dist")
// The pages' scripts (their browser/ folders) go into the bundle as text in place of their
// identifiers (src/transport/http-edge/browser-script.ts): the installed package has no esbuild.
const browserScripts = [setupBrowserScript, statusBrowserScript]
const define: Record<string, string> = version === undefined ? {} : { SCOREBRIDGE_BUILD_VERSION: JSON.stringify(version) }
for (const script of browserScripts) define[script.identifier] = JSON.stringify((await build(browserScriptBuild(script, root))).outputFiles[0]!.text)
const chunkPrefix = "chunk-"

// Node's own modules are loaded with require(), not `import`. For an `import`, Node builds the
// module's ES facade, which reads every export once, and some exports are lazy getters that load
// other modules: `node:http`'s WebSocket, CloseEvent and MessageEvent load Node's undici, which
// loads http2, zlib, worker_threads and web streams, none of which the bridge uses; `node:util`
// and `node:fs` pull in worker_threads, readline and more the same way. A require() returns the
// module as it is, and esbuild reads each export where it is used. The bench's daemon: 2.2 MB less
// resident (docs/performance.md).
const builtinsThroughRequire: Plugin = {
  name: "node-builtins-through-require",
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) =>
      args.kind === "import-statement" && args.namespace !== "node-builtin" && isBuiltin(args.path)
        ? { path: args.path.startsWith("node:") ? args.path : `node:${args.path}`, namespace: "node-builtin" }
        : undefined)
    b.onLoad({ filter: /.*/, namespace: "node-builtin" }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)})`, loader: "js" }))
  }
}

const result = await build({
  absWorkingDir: root,
  // Named so that the entry stays dist/scorebridge.mjs, the file bin/scorebridge runs. The entry
  // only reads the command line and imports one of two sides: the daemon (`run`, daemon.mjs, named
  // so that test/cli/bundle.test.ts can tell what the daemon loads) or the full CLI (a chunk).
  entryPoints: { scorebridge: "src/cli.ts", daemon: "src/cli/daemon-main.ts" },
  outdir,
  outExtension: { ".js": ".mjs" },
  // The `sim` and `demo` commands import the simulator (simulator/) when they run: splitting puts
  // it in a chunk of its own, which the daemon never loads nor keeps the source of in memory.
  splitting: true,
  chunkNames: `${chunkPrefix}[hash]`,
  metafile: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  // Native bindings and packages that load files or workers by path stay in node_modules.
  // undici too: @effect/platform-node's HTTP client imports it on demand, a path the bridge never
  // takes, and with splitting esbuild would write it out as a 1 MB chunk that nothing loads.
  external: ["serialport", "@serialport/*", "mqtt", "pino", "yaml", "playwright-core", "undici"],
  // Bundled CommonJS code calls require(); give the ES module one.
  banner: { js: "import { createRequire as scorebridgeRequire } from 'node:module'; const require = scorebridgeRequire(import.meta.url);" },
  legalComments: "none",
  // V8 keeps a script's source in memory for as long as it runs. Without comments and whitespace
  // it is about 1.5 MB of ASCII instead of 3.5 MB that a few non-ASCII comment characters turn
  // into a 7 MB two-byte string. Identifiers stay, so stack traces keep their function names.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [builtinsThroughRequire],
  define,
  logLevel: "warning"
})

// Chunk names change with their content: drop those of earlier builds, so that a directory
// copied or installed whole holds only what this entry loads.
const written = new Set(Object.keys(result.metafile.outputs).map((file) => basename(file)))
for (const name of readdirSync(outdir)) {
  if (name.startsWith(chunkPrefix) && name.endsWith(".mjs") && !written.has(name)) rmSync(join(outdir, name))
}
