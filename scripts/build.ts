// Bundles the CLI into one ES module, dist/scorebridge.mjs: no type stripping at start-up and
// only the parts of `effect` the bridge uses. Measured on the mini-PC class machine: start-up
// 0.4 s instead of 1.0 s, peak RSS of `--help` 105 MB instead of 160 MB (see docs/performance.md).
import { join } from "node:path"
import { build } from "esbuild"

const root = join(import.meta.dirname, "..")
// Another path builds a copy elsewhere: the garbage fault test lays out an installed bridge
// from the sources under test, leaving the work tree's dist/ alone.
const outfile = process.argv[2] ?? join(root, "dist/scorebridge.mjs")

await build({
  absWorkingDir: root,
  entryPoints: ["src/cli.ts"],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  // Native bindings and packages that load files or workers by path stay in node_modules.
  external: ["serialport", "@serialport/*", "mqtt", "pino", "yaml", "playwright-core"],
  // Bundled CommonJS code calls require(); give the ES module one.
  banner: { js: "import { createRequire as scorebridgeRequire } from 'node:module'; const require = scorebridgeRequire(import.meta.url);" },
  legalComments: "none",
  // V8 keeps a script's source in memory for as long as it runs. Without comments and whitespace
  // it is about 1.5 MB of ASCII instead of 3.5 MB that a few non-ASCII comment characters turn
  // into a 7 MB two-byte string. Identifiers stay, so stack traces keep their function names.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning"
})
