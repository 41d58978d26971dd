// The modules the bundle loads at run time, and nothing else: the packages scripts/build.ts leaves
// external (native bindings, and packages that load files or workers by path), with what they
// depend on, as `npm ci` installed them from package-lock.json. Each is copied whole but for what
// no running bridge reads (types, maps, docs, C++ sources) and serialport's prebuilt bindings for
// other systems.
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"

/** What the bundle imports from node_modules at run time (scripts/build.ts's `external`, less what no command loads). */
export const runtimeRoots: ReadonlyArray<string> = ["serialport", "@serialport/parser-readline", "mqtt", "pino", "yaml"]

export interface RuntimeModule {
  /** Path under node_modules, e.g. "@serialport/bindings-cpp" or "mqtt/node_modules/lru-cache". */
  readonly path: string
  readonly from: string
  /** Paths inside the module not to ship. */
  readonly drop: ReadonlyArray<string>
}

interface Manifest {
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
}

/** Where Node would find `name` from inside `directory`: its own node_modules, then each parent's. */
const resolvePackage = (nodeModules: string, directory: string, name: string): string | undefined => {
  for (let at = directory; at.startsWith(nodeModules); at = dirname(at)) {
    const candidate = join(at, at === nodeModules ? "" : "node_modules", name)
    if (existsSync(join(candidate, "package.json"))) return candidate
    if (at === nodeModules) break
  }
  return undefined
}

// Needed to compile a binding (C++ headers), never to load the prebuilt one; and type
// declarations, which mqtt lists among its dependencies (@types/ws, @types/readable-stream).
const notAtRunTime = (name: string): boolean => name === "node-addon-api" || name.startsWith("@types/")

// Test suites, benchmarks and examples some packages ship: never loaded.
const notLoaded = ["test", "tests", "test.js", "benchmarks", "bench", "example", "examples"]

const notShipped = (path: string, serialportPrebuild: string): ReadonlyArray<string> => {
  // mqtt's dist/ holds browser bundles; Node loads build/.
  if (path === "mqtt") return [...notLoaded, "dist"]
  if (path === "@serialport/bindings-cpp") {
    // node-gyp-build loads prebuilds/<platform>-<arch>/*.glibc.node; the C++ sources and gyp file
    // are for building one, which the mini-PC never does.
    const others = ["android-arm", "android-arm64", "darwin-x64+arm64", "linux-arm", "linux-arm64", "linux-x64", "win32-arm64", "win32-ia32", "win32-x64"]
      .filter((platform) => platform !== serialportPrebuild)
      .map((platform) => `prebuilds/${platform}`)
    return [...others, `prebuilds/${serialportPrebuild}/@serialport+bindings-cpp.musl.node`, `prebuilds/${serialportPrebuild}/@serialport+bindings-cpp.armv8.musl.node`, "src", "binding.gyp", ...notLoaded]
  }
  return notLoaded
}

/** Every module the runtime roots need, each once, found as Node would find it. */
export const runtimeModules = (nodeModules: string, serialportPrebuild: string): ReadonlyArray<RuntimeModule> => {
  const found = new Map<string, RuntimeModule>()
  const visit = (from: string, name: string, optional: boolean): void => {
    const directory = resolvePackage(nodeModules, from, name)
    if (directory === undefined) {
      if (optional) return
      throw new Error(`${name}, needed from ${relative(nodeModules, from) || "the bundle"}, is not in node_modules: run npm ci first`)
    }
    const path = relative(nodeModules, directory)
    if (found.has(path) || notAtRunTime(name)) return
    found.set(path, { path, from: directory, drop: notShipped(path, serialportPrebuild) })
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as Manifest
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(directory, dependency, false)
    for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) visit(directory, dependency, true)
  }
  for (const name of runtimeRoots) visit(nodeModules, name, false)
  // A nested module is copied with its parent's tree: keep only the outermost of each path.
  return [...found.values()].filter((module) => !module.path.includes("/node_modules/"))
}
