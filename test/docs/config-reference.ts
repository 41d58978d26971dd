import type { Root, TableCell } from "mdast"
import { toString } from "mdast-util-to-string"
import { descendants, lineOf } from "./markdown.ts"

type JsonObject = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// `false` and `{not: {}}` forbid a property (e.g. `team` in an undo action): such a key is not a setting.
const forbids = (schema: unknown): boolean =>
  schema === false || (isObject(schema) && isObject(schema["not"]) && Object.keys(schema["not"]).length === 0)

/**
 * Every key path a config file may hold, in schema order: `a.b` for properties, `a[]` for array
 * items, through `$ref` and the combinators. `if` and `not` only constrain, so they add no keys;
 * a map (`additionalProperties: {…}`) is one key whose own keys are free.
 */
export const schemaKeyPaths = (root: JsonObject): ReadonlyArray<string> => {
  const keys = new Set<string>()
  const resolve = (ref: string): unknown =>
    ref.startsWith("#")
      ? ref.slice(1).split("/").filter((part) => part !== "")
        .map((part) => decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~"))
        .reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), root)
      : undefined
  const walk = (schema: unknown, path: string, refsSeen: ReadonlySet<string>): void => {
    if (!isObject(schema)) return
    const ref = schema["$ref"]
    // A recursive $ref would have no end of key paths; stop at the second visit.
    if (typeof ref === "string" && !refsSeen.has(ref)) walk(resolve(ref), path, new Set([...refsSeen, ref]))
    const properties = schema["properties"]
    if (isObject(properties)) {
      for (const [name, child] of Object.entries(properties)) {
        if (forbids(child)) continue
        const key = path === "" ? name : `${path}.${name}`
        keys.add(key)
        walk(child, key, refsSeen)
      }
    }
    const items = schema["items"]
    for (const item of Array.isArray(items) ? items : [items]) walk(item, `${path}[]`, refsSeen)
    const prefixItems = schema["prefixItems"]
    if (Array.isArray(prefixItems)) for (const item of prefixItems) walk(item, `${path}[]`, refsSeen)
    for (const combinator of ["allOf", "anyOf", "oneOf"]) {
      const branches = schema[combinator]
      if (Array.isArray(branches)) for (const branch of branches) walk(branch, path, refsSeen)
    }
    for (const conditional of ["then", "else"]) walk(schema[conditional], path, refsSeen)
  }
  walk(root, "", new Set())
  return [...keys]
}

/** `a.{b,c}.d` → `a.b.d`, `a.c.d`; groups may nest or repeat. Unbalanced braces stay literal (and then match no key). */
export const expandBraces = (text: string): ReadonlyArray<string> => {
  const open = text.indexOf("{")
  if (open < 0) return [text]
  let depth = 0
  const commas: Array<number> = []
  for (let at = open; at < text.length; at++) {
    const char = text[at]
    if (char === "{") depth++
    else if (char === "," && depth === 1) commas.push(at)
    else if (char === "}" && --depth === 0) {
      const bounds = [open, ...commas, at]
      const head = text.slice(0, open)
      const tail = text.slice(at + 1)
      return bounds.slice(1).flatMap((end, index) =>
        expandBraces(`${head}${text.slice(bounds[index]! + 1, end).trim()}${tail}`)
      )
    }
  }
  return [text]
}

export interface DocumentedKey {
  readonly key: string
  readonly line: number
}

const cellText = (cell: TableCell | undefined): string => (cell === undefined ? "" : toString(cell).trim())

/**
 * Keys named by the reference tables: every table whose header's first cell is `key`; in each
 * body row, every code span of the first cell is one key path (brace groups expanded).
 */
export const referenceKeys = (tree: Root): ReadonlyArray<DocumentedKey> =>
  [...descendants(tree)].flatMap((node) => {
    if (node.type !== "table" || cellText(node.children[0]?.children[0]).toLowerCase() !== "key") return []
    return node.children.slice(1).flatMap((row) => {
      const first = row.children[0]
      return first === undefined ? [] : [...descendants(first)].flatMap((inner) =>
        inner.type === "inlineCode" ? expandBraces(inner.value.trim()).map((key) => ({ key, line: lineOf(row) })) : []
      )
    })
  })

export interface ReferenceDrift {
  /** Schema keys the reference does not name (a container is covered by any key below it). */
  readonly missing: ReadonlyArray<string>
  /** Keys the reference names that the schema does not have. */
  readonly unknown: ReadonlyArray<DocumentedKey>
}

const isBelow = (key: string, container: string): boolean =>
  key.startsWith(`${container}.`) || key.startsWith(`${container}[]`)

export const compareReference = (schemaKeys: ReadonlyArray<string>, documented: ReadonlyArray<DocumentedKey>): ReferenceDrift => {
  const known = new Set(schemaKeys)
  const named = new Set(documented.map((d) => d.key).filter((key) => known.has(key)))
  const isContainer = (key: string): boolean => schemaKeys.some((other) => isBelow(other, key))
  return {
    missing: schemaKeys.filter((key) =>
      !named.has(key) && !(isContainer(key) && [...named].some((name) => isBelow(name, key)))
    ),
    unknown: documented.filter((d) => !known.has(d.key))
  }
}

export const formatDrift = (file: string, drift: ReferenceDrift): string =>
  [
    ...(drift.missing.length === 0 ? [] : [
      `${drift.missing.length} schema key(s) not documented in ${file}:`,
      ...drift.missing.map((key) => `  ${key}`)
    ]),
    ...(drift.unknown.length === 0 ? [] : [
      `${drift.unknown.length} key(s) in ${file} that the schema does not have:`,
      ...drift.unknown.map((d) => `  ${d.key} (${file}:${d.line})`)
    ])
  ].join("\n")
