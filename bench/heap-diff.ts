/**
 * What grew between two heap snapshots (from `SCOREBRIDGE_BENCH_HEAP_SNAPSHOTS`): object counts
 * and self sizes by constructor, largest growth first.
 *
 *   node bench/heap-diff.ts EARLY.heapsnapshot LATE.heapsnapshot [TOP]
 */
import { readFileSync } from "node:fs"

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: ReadonlyArray<string>; readonly node_types: ReadonlyArray<ReadonlyArray<string> | string> } }
  readonly nodes: ReadonlyArray<number>
  readonly strings: ReadonlyArray<string>
}

const tally = (path: string): Map<string, { count: number; size: number }> => {
  const s = JSON.parse(readFileSync(path, "utf8")) as Snapshot
  const fields = s.snapshot.meta.node_fields
  const types = s.snapshot.meta.node_types[0] as ReadonlyArray<string>
  const width = fields.length
  const typeAt = fields.indexOf("type")
  const nameAt = fields.indexOf("name")
  const sizeAt = fields.indexOf("self_size")
  const byKey = new Map<string, { count: number; size: number }>()
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]!]!
    const rawName = s.strings[s.nodes[i + nameAt]!] ?? ""
    // Strings and code are keyed by kind only: their "names" are their contents.
    const name = type === "object" || type === "closure" || type === "native" ? rawName.slice(0, 80) : ""
    const key = `${type} ${name}`
    const entry = byKey.get(key) ?? { count: 0, size: 0 }
    entry.count++
    entry.size += s.nodes[i + sizeAt]!
    byKey.set(key, entry)
  }
  return byKey
}

const [early, late, top = "30"] = process.argv.slice(2)
if (early === undefined || late === undefined) {
  process.stderr.write("usage: node bench/heap-diff.ts EARLY.heapsnapshot LATE.heapsnapshot [TOP]\n")
  process.exit(64)
}
const a = tally(early)
const b = tally(late)
const rows = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
  const x = a.get(key) ?? { count: 0, size: 0 }
  const y = b.get(key) ?? { count: 0, size: 0 }
  return { key, count: y.count - x.count, size: y.size - x.size, total: y.size }
}).sort((p, q) => q.size - p.size)
for (const r of rows.slice(0, Number(top))) {
  process.stdout.write(`${(r.size / 1024).toFixed(1).padStart(10)} KB ${String(r.count).padStart(8)} objects  ${r.key}  (now ${(r.total / 1024).toFixed(0)} KB)\n`)
}
