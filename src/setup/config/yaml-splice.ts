import { Document, isCollection, isMap, isNode, isScalar, isSeq, type Node, type Pair } from "yaml"

/**
 * Text edits of a YAML file at the places its parsed nodes came from. The `yaml` package's
 * Document API keeps comments but prints the whole file in its own style (one space before
 * `# …`, `[ a, b ]`), so a save through `doc.toString()` would touch every line of a hand-written
 * config. Only the parts that change are printed by it here, and put where the old ones were.
 */
export interface TextEdit {
  readonly start: number
  readonly end: number
  readonly text: string
}

/**
 * Applies edits made against the same text, from its end backwards so the offsets stay right.
 * At one offset a replacement goes first and insertions land before it, in the order given.
 */
export const applyTextEdits = (text: string, edits: ReadonlyArray<TextEdit>): string =>
  edits.map((edit, order) => ({ edit, order }))
    .sort((a, b) =>
      b.edit.start - a.edit.start ||
      Number(a.edit.end === a.edit.start) - Number(b.edit.end === b.edit.start) ||
      b.order - a.order
    )
    .reduce((result, { edit }) => result.slice(0, edit.start) + edit.text + result.slice(edit.end), text)

export const columnOf = (text: string, offset: number): number => offset - (text.lastIndexOf("\n", offset - 1) + 1)

/** The offset of the newline ending the line `offset` is on (the text's end on its last line). */
export const lineEnd = (text: string, offset: number): number => {
  const newline = text.indexOf("\n", offset)
  return newline === -1 ? text.length : newline
}

const lineStart = (text: string, offset: number): number => text.lastIndexOf("\n", offset - 1) + 1

const trimBack = (text: string, end: number): number => {
  let at = end
  while (at > 0 && /\s/u.test(text[at - 1] ?? "")) at--
  return at
}

/** How a value was written, kept when it is printed anew: `{ a: 1 }`, or a list of `{ … }` items. */
export interface Style {
  readonly flow: boolean
  readonly flowItems: boolean
  /** `{ a: 1 }` rather than `{a: 1}`. */
  readonly padded: boolean
}

const paddedIn = (text: string | undefined, node: unknown): boolean => {
  const start = isNode(node) ? node.range?.[0] : undefined
  return text === undefined || start === undefined || /^[[{](?:\s|[\]}])/u.test(text.slice(start, start + 2))
}

export const styleOf = (node: unknown, text?: string): Style => {
  const flowItems = isSeq(node) && node.flow !== true && node.items.length > 0 && node.items.every((item) => isMap(item) && item.flow === true)
  return {
    flow: isCollection(node) && node.flow === true,
    flowItems,
    padded: paddedIn(text, flowItems ? (node as { items: Array<unknown> }).items[0] : node)
  }
}

const plainStyle: Style = { flow: false, flowItems: false, padded: true }

const styled = (node: unknown, style: Style): void => {
  if (!isCollection(node)) return
  if (style.flow) node.flow = true
  if (style.flowItems && isSeq(node)) for (const item of node.items) if (isMap(item)) item.flow = true
}

const printed = (doc: Document, style: Style): string =>
  doc.toString({ lineWidth: 0, flowCollectionPadding: style.padded }).replace(/\n+$/u, "")

/** Lines after the first indented to `column`: the first goes where the old text began. */
const indented = (text: string, column: number): string =>
  text.split("\n").map((line, index) => (index === 0 || line === "" ? line : " ".repeat(column) + line)).join("\n")

/** `key: value` printed to stand at `column`. */
export const renderPair = (key: string, value: unknown, column: number, style: Style = plainStyle): string => {
  const doc = new Document({ [key]: value })
  styled(doc.get(key, true), style)
  return indented(printed(doc, style), column)
}

/** A value printed to stand at `column` (a list item's content, after its `- `). */
export const renderValue = (value: unknown, column: number, style: Style = plainStyle): string => {
  const doc = new Document(value)
  styled(doc.contents, style)
  return indented(printed(doc, style), column)
}

const blockWritten = (node: Node): boolean =>
  (isCollection(node) && node.flow !== true) ||
  (isScalar(node) && (node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED"))

/** Where a node's own text ends: a trailing comment on a scalar's line is left out, a block's last line kept whole. */
export const nodeEnd = (text: string, node: unknown): number | undefined => {
  if (!isNode(node) || node.range == null) return undefined
  return blockWritten(node) ? trimBack(text, node.range[1]) : node.range[1]
}

const keyStart = (pair: Pair): number | undefined => (isNode(pair.key) ? pair.key.range?.[0] : undefined)

/** Where a pair's text ends: its value's end, or its colon for an empty value. */
const pairEnd = (text: string, pair: Pair): number | undefined => {
  const keyNode = pair.key
  if (!isNode(keyNode) || keyNode.range == null) return undefined
  const colon = text.indexOf(":", keyNode.range[1]) + 1
  const valueEnd = nodeEnd(text, pair.value) ?? colon
  return Math.max(colon, valueEnd)
}

export const replacePair = (text: string, pair: Pair, key: string, value: unknown): TextEdit | undefined => {
  const start = keyStart(pair)
  const end = pairEnd(text, pair)
  if (start === undefined || end === undefined) return undefined
  return { start, end, text: renderPair(key, value, columnOf(text, start), styleOf(pair.value, text)) }
}

/** The pair's lines taken out, with a trailing comment on its last line; not a pair sharing its line with a `- `. */
export const removePair = (text: string, pair: Pair): TextEdit | undefined => {
  const start = keyStart(pair)
  const end = pairEnd(text, pair)
  if (start === undefined || end === undefined) return undefined
  const from = lineStart(text, start)
  if (text.slice(from, start).trim() !== "") return undefined
  return { start: from, end: Math.min(text.length, lineEnd(text, end) + 1), text: "" }
}

/** A pair added after a block map's last one, at the column of its first. */
export const addPair = (text: string, map: unknown, key: string, value: unknown): TextEdit | undefined => {
  if (!isMap(map) || map.flow === true || map.items.length === 0) return undefined
  const first = keyStart(map.items[0]!)
  const end = pairEnd(text, map.items.at(-1)!)
  if (first === undefined || end === undefined) return undefined
  const at = lineEnd(text, end)
  return { start: at, end: at, text: `\n${" ".repeat(columnOf(text, first))}${renderPair(key, value, columnOf(text, first))}` }
}

/** A list item's content replaced (after its `- `), kept in the style of its neighbours. */
export const replaceItem = (text: string, seq: unknown, index: number, value: unknown): TextEdit | undefined => {
  if (!isSeq(seq) || seq.flow === true) return undefined
  const item = seq.items[index]
  const end = nodeEnd(text, item)
  if (!isNode(item) || item.range == null || end === undefined) return undefined
  const start = item.range[0]
  return { start, end, text: renderValue(value, columnOf(text, start), { ...styleOf(item, text), flowItems: false }) }
}

/** An item added after a block list's last one; a blank line between, when its items have one. */
export const addItem = (text: string, seq: unknown, value: unknown): TextEdit | undefined => {
  if (!isSeq(seq) || seq.flow === true || seq.items.length === 0 || seq.range == null) return undefined
  const end = nodeEnd(text, seq.items.at(-1))
  if (end === undefined) return undefined
  const dash = columnOf(text, seq.range[0])
  const spaced = seq.items.length > 1 && /\n[ \t]*\n/u.test(text.slice(nodeEnd(text, seq.items[0]) ?? 0, rangeStart(seq.items[1])))
  const style = { ...styleOf(seq, text), flow: styleOf(seq).flowItems, flowItems: false }
  const at = lineEnd(text, end)
  return { start: at, end: at, text: `\n${spaced ? "\n" : ""}${" ".repeat(dash)}- ${renderValue(value, dash + 2, style)}` }
}

/** A list item's lines taken out; only an item whose `- ` begins its line. */
export const removeItem = (text: string, seq: unknown, index: number): TextEdit | undefined => {
  const item = isSeq(seq) && seq.flow !== true ? seq.items[index] : undefined
  const end = nodeEnd(text, item)
  if (!isNode(item) || item.range == null || end === undefined) return undefined
  const from = lineStart(text, item.range[0])
  if (!/^[ \t]*-[ \t]+$/u.test(text.slice(from, item.range[0]))) return undefined
  return { start: from, end: Math.min(text.length, lineEnd(text, end) + 1), text: "" }
}

const rangeStart = (node: unknown): number => (isNode(node) ? node.range?.[0] ?? 0 : 0)

/**
 * A top-level section added before `before` (with the comment lines right above it, which
 * belong to it), or at the end of the file when that is not there.
 */
export const addSection = (text: string, before: Pair | undefined, key: string, value: unknown): TextEdit => {
  const rendered = renderPair(key, value, 0)
  const start = before === undefined ? undefined : keyStart(before)
  if (start === undefined) {
    const ending = text === "" || text.endsWith("\n") ? "" : "\n"
    return { start: text.length, end: text.length, text: `${ending}${text.trim() === "" ? "" : "\n"}${rendered}\n` }
  }
  let at = lineStart(text, start)
  for (let above = lineStart(text, at - 1); at > 0 && /^[ \t]*#/u.test(text.slice(above, at)); above = lineStart(text, above - 1)) at = above
  return { start: at, end: at, text: `${rendered}\n\n` }
}
