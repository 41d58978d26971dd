/**
 * The house's measures, printed as one JSON line: what the architecture work counts before and after
 * (docs/architecture.md, "Measures"). Run: `node scripts/code-measures.ts [--list]`.
 *
 * - functionsOver60: functions (declarations, expressions, arrows, methods) in src/ and adapters/ spanning
 *   more than 60 lines, tables (scripts/support/function-length.ts) left out.
 * - payloadCasts: `as` casts on a line that handles an outbox payload or a click's metadata.
 * - folderCircles: pairs of folders importing each other (dependency-cruiser's folder view; tests left out:
 *   a test may reach across parts, and nothing imports a test).
 * - testSleeps: real-time sleeps in tests (`sleep(`, `setTimeout(` promises, `Effect.sleep` outside TestClock).
 */
import { longFunctions } from "./support/function-length.ts"
import { spawnSync } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"

const repo = join(import.meta.dirname, "..")

const filesUnder = (dir: string, keep: (path: string) => boolean): Array<string> => {
  const out: Array<string> = []
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === "node_modules") continue
      const path = join(d, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (keep(path)) out.push(path)
    }
  }
  walk(join(repo, dir))
  return out
}

const isProductSource = (path: string) => path.endsWith(".ts") && !path.endsWith(".test.ts") && !path.endsWith(".d.ts")
const isTestSource = (path: string) => path.endsWith(".ts") && (path.endsWith(".test.ts") || path.includes("/test/"))

const payloadCast = /\b(payload|metadata|body)\b.*\bas\s+(?!const\b)[A-Z{]|\bas\s+(?!const\b)[A-Z{][^\n]*\b(payload|metadata)\b/u
const payloadCasts = (paths: ReadonlyArray<string>) =>
  paths.flatMap((path) =>
    readFileSync(path, "utf8").split("\n").flatMap((line, i) => (payloadCast.test(line) ? [`${relative(repo, path)}:${i + 1}`] : []))
  )

const sleepCall = /\bsleep\(|new Promise[^\n]*setTimeout|\bEffect\.sleep\(|\bsetTimeout\(resolve/u
const testSleeps = (paths: ReadonlyArray<string>) =>
  paths.flatMap((path) => {
    const text = readFileSync(path, "utf8")
    if (/TestClock/u.test(text) && !/\bsleep\(/u.test(text)) return []
    return text.split("\n").flatMap((line, i) => (sleepCall.test(line) && !/^\s*(\/\/|\*)/u.test(line) ? [`${relative(repo, path)}:${i + 1}`] : []))
  })

/** Pairs of folders that import each other, from dependency-cruiser's folder aggregation. */
const folderCircles = () => {
  const run = spawnSync(join(repo, "node_modules/.bin/depcruise"), ["src", "adapters", "--metrics", "--exclude", "\\.test\\.ts$", "--output-type", "json", "--config", ".dependency-cruiser.cjs"], {
    cwd: repo,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024
  })
  const result = JSON.parse(run.stdout) as { folders: Array<{ name: string; dependencies: Array<{ name: string }> }> }
  const edges = new Set(result.folders.flatMap((folder) => folder.dependencies.map((d) => `${folder.name}|${d.name}`)))
  return [...edges].flatMap((edge) => {
    const [from, to] = edge.split("|") as [string, string]
    return from < to && edges.has(`${to}|${from}`) ? [`${from} <-> ${to}`] : []
  })
}

const product = [...filesUnder("src", isProductSource), ...filesUnder("adapters", isProductSource)]
const tests = [...filesUnder("test", isTestSource), ...filesUnder("src", (p) => p.endsWith(".test.ts")), ...filesUnder("adapters", (p) => p.endsWith(".test.ts"))]
  .filter((path) => !path.includes("/test/support/sleep.ts"))

const long = product.flatMap((path) => longFunctions(repo, path, 60)).sort((a, b) => b.lines - a.lines)
const casts = payloadCasts(product)
const circles = folderCircles()
const sleeps = testSleeps(tests)

const counts = { functionsOver60: long.length, payloadCasts: casts.length, folderCircles: circles.length, testSleeps: sleeps.length }
console.log(JSON.stringify(counts))
if (process.argv.includes("--list")) {
  console.log("\nfunctions over 60 lines:\n" + long.map((f) => `  ${f.file}:${f.line} (${f.lines} lines)`).join("\n"))
  console.log("\npayload casts:\n" + casts.map((c) => `  ${c}`).join("\n"))
  console.log("\nfolders importing each other:\n" + circles.map((c) => `  ${c}`).join("\n"))
  console.log("\nsleeps in tests:\n" + sleeps.map((s) => `  ${s}`).join("\n"))
}
