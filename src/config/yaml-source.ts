import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml"

export interface Position {
  readonly line: number
  readonly column: number
}

export interface YamlProblem extends Position {
  readonly message: string
}

/** A parsed YAML file that can say where any path of its content was written. */
export interface YamlSource {
  readonly value: unknown
  /** Line:column of the value at `path`, of its key when `atKey`, or of the nearest enclosing node that exists. */
  readonly locate: (path: ReadonlyArray<PropertyKey>, atKey?: boolean) => Position | undefined
}

const childOf = (node: unknown, key: PropertyKey): { key?: unknown; value: unknown } | undefined => {
  if (isMap(node)) {
    const pair = node.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === key)
    return pair === undefined ? undefined : { key: pair.key, value: pair.value }
  }
  if (isSeq(node) && typeof key === "number") {
    const item = node.items[key]
    return item === undefined ? undefined : { value: item }
  }
  return undefined
}

const startOf = (node: unknown): number | undefined => (node as Partial<Node> | null)?.range?.[0]

const locator = (doc: Document.Parsed, lines: LineCounter) => (path: ReadonlyArray<PropertyKey>, atKey = false) => {
  let node: unknown = doc.contents
  let offset = startOf(node)
  for (const [index, key] of path.entries()) {
    const child = childOf(node, key)
    if (child === undefined) break
    const isLast = index === path.length - 1
    node = child.value
    offset = (isLast && atKey ? startOf(child.key) : undefined) ?? startOf(child.value) ?? startOf(child.key) ?? offset
  }
  if (offset === undefined) return undefined
  const { line, col } = lines.linePos(offset)
  return { line, column: col }
}

// The parser's own message up to its location and source excerpt: we print the
// location ourselves, and the excerpt could quote a secret pasted inline.
const plainMessage = (message: string) => message.split(/ at line \d+|\n/u)[0] ?? message

export const parseYaml = (text: string): { readonly _tag: "ok"; readonly source: YamlSource } | {
  readonly _tag: "invalid"
  readonly problems: ReadonlyArray<YamlProblem>
} => {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    return {
      _tag: "invalid",
      problems: doc.errors.map((error) => {
        const { line, col } = lines.linePos(error.pos[0])
        return { line, column: col, message: `YAML syntax: ${plainMessage(error.message)}` }
      })
    }
  }
  return { _tag: "ok", source: { value: doc.toJS({ maxAliasCount: 100 }), locate: locator(doc, lines) } }
}
