import { isDeepStrictEqual } from "node:util"
import { isMap, isScalar, isSeq, type Pair, type YAMLMap } from "yaml"
import { addItem, addPair, removeItem, removePair, replaceItem, replacePair, type TextEdit } from "./yaml-splice.ts"

/** What one part of an edit comes to: the text edits and the keys they change (for the journal). */
export interface Edits {
  readonly edits: ReadonlyArray<TextEdit>
  /** `places[court-1].scoreboard.serial.path` */
  readonly keys: ReadonlyArray<string>
}

export const noEdits: Edits = { edits: [], keys: [] }

export const joined = (parts: ReadonlyArray<Edits>): Edits => ({
  edits: parts.flatMap((part) => part.edits),
  keys: parts.flatMap((part) => part.keys)
})

export type Plain = Readonly<Record<string, unknown>>

export const isPlain = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const pairOf = (map: YAMLMap, key: string): Pair | undefined =>
  map.items.find((pair) => (isScalar(pair.key) ? pair.key.value : pair.key) === key)

const sameKeys = (map: YAMLMap, before: Plain): boolean =>
  map.items.length === Object.keys(before).length

/**
 * The edits that turn a block map written as `before` into `after`, key by key: a key whose
 * value is unchanged is not touched (its comments stay), a nested block map is edited the same
 * way inside, anything else changed is printed anew. Undefined when the text cannot be edited
 * in place (the caller prints the whole map instead).
 */
export const mapEdits = (text: string, map: unknown, before: Plain, after: Plain, path: string): Edits | undefined => {
  if (!isMap(map) || map.flow === true || map.items.length === 0 || !sameKeys(map, before)) return undefined
  const parts: Array<Edits> = []
  for (const [key, value] of Object.entries(after)) {
    const part = keyEdits(text, map, key, before[key], value, `${path}.${key}`)
    if (part === undefined) return undefined
    parts.push(part)
  }
  for (const key of Object.keys(before).filter((key) => !(key in after))) {
    const pair = pairOf(map, key)
    const edit = pair === undefined ? undefined : removePair(text, pair)
    if (edit === undefined) return undefined
    parts.push({ edits: [edit], keys: [`${path}.${key}`] })
  }
  return joined(parts)
}

const keyEdits = (text: string, map: YAMLMap, key: string, was: unknown, value: unknown, path: string): Edits | undefined => {
  if (isDeepStrictEqual(was, value)) return noEdits
  const pair = pairOf(map, key)
  if (pair === undefined) {
    const edit = addPair(text, map, key, value)
    return edit === undefined ? undefined : { edits: [edit], keys: [path] }
  }
  const inside = isPlain(was) && isPlain(value)
    ? mapEdits(text, pair.value, was, value, path)
    : Array.isArray(was) && Array.isArray(value)
    ? seqEdits(text, pair.value, was, value, path)
    : undefined
  if (inside !== undefined) return inside
  const edit = replacePair(text, pair, key, value)
  return edit === undefined ? undefined : { edits: [edit], keys: [path] }
}

/**
 * A block list edited item by item (a place's actions): unchanged items keep their comments,
 * a changed one is edited inside or printed anew, items added at the end or taken from it.
 */
const seqEdits = (text: string, seq: unknown, before: ReadonlyArray<unknown>, after: ReadonlyArray<unknown>, path: string): Edits | undefined => {
  if (!isSeq(seq) || seq.flow === true || seq.items.length !== before.length || before.length === 0) return undefined
  const edits: Array<TextEdit | undefined> = []
  const keys = new Set<string>()
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const [was, value] = [before[index], after[index]]
    if (index < after.length && isDeepStrictEqual(was, value)) continue
    keys.add(`${path}[${index}]`)
    if (index >= after.length) edits.push(removeItem(text, seq, index))
    else if (index >= before.length) edits.push(addItem(text, seq, value))
    else {
      const inside = isPlain(was) && isPlain(value) ? mapEdits(text, seq.items[index], was, value, `${path}[${index}]`) : undefined
      if (inside !== undefined) edits.push(...inside.edits)
      else edits.push(replaceItem(text, seq, index, value))
    }
  }
  return edits.every((edit) => edit !== undefined) ? { edits, keys: [...keys] } : undefined
}
