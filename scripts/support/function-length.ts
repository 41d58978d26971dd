/**
 * Functions longer than a limit, found by parsing TypeScript with swc: the house's rule is no function
 * over about 60 lines unless it is a table (test/architecture/function-length.test.ts,
 * scripts/code-measures.ts).
 */
import { parseSync } from "@swc/core"
import { readFileSync } from "node:fs"
import { relative } from "node:path"

/**
 * Long on purpose: tables, whose length is their rows. Each entry names the file and the line the
 * function starts on, and why.
 */
export const tables: ReadonlyArray<{ readonly file: string; readonly starts: string; readonly why: string }> = [
  { file: "src/delivery/outbox-statements.ts", starts: "export const outboxStatements", why: "the outbox's SQL statements, one per row" }
]

const functionKinds = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression", "ClassMethod", "Constructor"])

export interface LongFunction { readonly file: string; readonly line: number; readonly lines: number }

/** Every function longer than `limit` lines in one file. swc's spans are byte offsets that grow from parse
 * to parse, so the file is parsed behind a leading `;` whose own span gives the base. */
export const longFunctions = (repo: string, path: string, limit: number): Array<LongFunction> => {
  const source = ";" + readFileSync(path, "utf8").replace(/^#!/u, "//")
  const bytes = Buffer.from(source)
  const sourceLines = source.slice(1).split("\n")
  const lineStarts = [0]
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lineStarts.push(i + 1)
  const lineOf = (offset: number) => {
    let lo = 0
    let hi = lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (lineStarts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
  const ast = parseSync(source, { syntax: "typescript", comments: false })
  const base = ast.span.start
  const found: Array<LongFunction> = []
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (node === null || typeof node !== "object") return
    const record = node as { type?: string; span?: { start: number; end: number } }
    if (record.type !== undefined && functionKinds.has(record.type) && record.span !== undefined) {
      const first = lineOf(record.span.start - base)
      const lines = lineOf(record.span.end - base) - first + 1
      const file = relative(repo, path)
      const isTable = tables.some((t) => t.file === file && sourceLines[first - 1]?.startsWith(t.starts))
      if (lines > limit && !isTable) found.push({ file, line: first, lines })
    }
    for (const value of Object.values(record)) if (typeof value === "object") visit(value)
  }
  visit(ast.body)
  return found
}

