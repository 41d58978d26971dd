import { isMap, isSeq, type YAMLMap } from "yaml"
import { type Edits, isPlain, joined, mapEdits, pairOf, type Plain } from "./map-edits.ts"
import { addItem, addSection, replaceItem, replacePair } from "./yaml-splice.ts"

/** One entry of a list upserted by its identity: `replaces` is the identity it had, null for a new one. */
export interface Upsert {
  readonly replaces: string | null
  readonly value: Plain
}

/** A list of the config upserted by identity: `places` by key, `buttons` by name. */
export interface ListEdit {
  readonly section: "places" | "buttons"
  readonly identity: "key" | "name"
  readonly upserts: ReadonlyArray<Upsert>
}

/** The place edited is no longer in the file (changed by hand meanwhile). */
export interface EntryGone {
  readonly _tag: "EntryGone"
  readonly identity: string
}

export const isGone = (value: unknown): value is EntryGone => (value as Partial<EntryGone> | undefined)?._tag === "EntryGone"

const idOf = (entry: unknown, identity: string): unknown => (isPlain(entry) ? entry[identity] : undefined)

const listOf = (before: Plain, section: string): ReadonlyArray<unknown> => {
  const list = before[section]
  return Array.isArray(list) ? list : []
}

/** Each upsert's index in the list (-1: added), or a place no longer there (a button not there is added). */
const indexes = (list: ReadonlyArray<unknown>, edit: ListEdit): ReadonlyArray<number> | EntryGone => {
  const found = edit.upserts.map(({ replaces }) =>
    replaces === null ? -1 : list.findIndex((entry) => idOf(entry, edit.identity) === replaces)
  )
  const gone = edit.upserts.findIndex((upsert, at) => edit.section === "places" && upsert.replaces !== null && found[at] === -1)
  return gone === -1 ? found : { _tag: "EntryGone", identity: edit.upserts[gone]!.replaces! }
}

/** The list as it will be: each upsert in its entry's place, new ones at the end. */
export const upserted = (before: Plain, edit: ListEdit): ReadonlyArray<unknown> | EntryGone => {
  const list = listOf(before, edit.section)
  const at = indexes(list, edit)
  if (isGone(at)) return at
  const after = [...list]
  edit.upserts.forEach(({ value }, index) => {
    const where = at[index]!
    if (where === -1) after.push(value)
    else after[where] = value
  })
  return after
}

const entryName = (edit: ListEdit, upsert: Upsert): string => `${edit.section}[${upsert.replaces ?? String(upsert.value[edit.identity])}]`

/** In the block list as written: each entry edited key by key where it can be, else printed anew. */
const inPlace = (text: string, seq: unknown, list: ReadonlyArray<unknown>, edit: ListEdit, at: ReadonlyArray<number>): Edits | undefined => {
  const parts: Array<Edits> = []
  for (const [index, upsert] of edit.upserts.entries()) {
    const where = at[index]!
    const name = entryName(edit, upsert)
    const was = list[where]
    const item = where === -1 ? undefined : (seq as { items: Array<unknown> }).items[where]
    const edited = where !== -1 && isPlain(was) ? mapEdits(text, item, was, upsert.value, name) : undefined
    if (edited !== undefined) {
      parts.push(edited)
      continue
    }
    const edit1 = where === -1 ? addItem(text, seq, upsert.value) : replaceItem(text, seq, where, upsert.value)
    if (edit1 === undefined) return undefined
    parts.push({ edits: [edit1], keys: [name] })
  }
  return joined(parts)
}

/**
 * The text edits of a list's upserts. A list written as a block list keeps every entry not
 * upserted byte for byte; an empty or `[ … ]` list is printed anew, a missing one added (buttons
 * before places).
 */
export const listEdits = (text: string, root: YAMLMap, before: Plain, edit: ListEdit): Edits | EntryGone | undefined => {
  if (edit.upserts.length === 0) return { edits: [], keys: [] }
  const list = listOf(before, edit.section)
  const at = indexes(list, edit)
  if (isGone(at)) return at
  const pair = pairOf(root, edit.section)
  const names = edit.upserts.map((upsert) => entryName(edit, upsert))
  if (pair !== undefined && isSeq(pair.value) && pair.value.flow !== true && pair.value.items.length > 0 && isMap(pair.value.items[0])) {
    return inPlace(text, pair.value, list, edit, at)
  }
  const after = upserted(before, edit) as ReadonlyArray<unknown>
  if (pair !== undefined) {
    const replaced = replacePair(text, pair, edit.section, after)
    return replaced === undefined ? undefined : { edits: [replaced], keys: names }
  }
  return { edits: [addSection(text, edit.section === "buttons" ? pairOf(root, "places") : undefined, edit.section, after)], keys: names }
}
