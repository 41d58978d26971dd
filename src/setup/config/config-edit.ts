import { isDeepStrictEqual } from "node:util"
import { type Document, isMap, parseDocument, type YAMLMap } from "yaml"
import { type Edits, isPlain, joined, mapEdits, noEdits, pairOf, type Plain } from "./map-edits.ts"
import { type EntryGone, isGone, type ListEdit, listEdits, upserted } from "./place-edit.ts"
import { redactedUrl } from "./secret-redaction.ts"
import { addSection, applyTextEdits, replacePair } from "./yaml-splice.ts"

/** What the page asks of config.yaml in one save: one place, the buttons it uses, a few service settings. */
export interface ConfigEdit {
  /** The key of the place edited; null adds the place at the end of `places:`. */
  readonly replaces: string | null
  readonly place: Plain
  /** Upserted by name. */
  readonly buttons: ReadonlyArray<Plain>
  readonly service?: { readonly baseUrl?: string | undefined; readonly companyKey?: string | undefined } | undefined
  /** The broker; `username` and `password` given again when the broker's address changes (secret-destinations.ts). */
  readonly mqtt?: { readonly url: string; readonly username?: string | undefined; readonly password?: Plain | undefined } | undefined
  /** The token was stored through the page: `service.token` becomes `{ credential: token }` (the unit's LoadCredential=token:…). */
  readonly tokenCredential: boolean
  /** The broker moved without its login given again: `mqtt.username` and `mqtt.password` are removed. */
  readonly dropBrokerLogin?: boolean | undefined
}

export interface EditedConfig {
  readonly text: string
  /** What changed, for the journal: `places[court-1].scoreboard.serial.path`, `service.token`. */
  readonly keys: ReadonlyArray<string>
  /** The places the edit touched (their keys before and after). */
  readonly places: ReadonlyArray<string>
  /** The edit could not be made in place and the yaml package printed the whole file (comments kept, spacing its own). */
  readonly rewritten: boolean
}

/** The file cannot be edited: it is not YAML with a map at the top, or the place edited is gone. */
export interface EditRefused {
  readonly _tag: "EditRefused"
  readonly reason: string
}

const refused = (reason: string): EditRefused => ({ _tag: "EditRefused", reason })

export const isRefused = (value: unknown): value is EditRefused => (value as Partial<EditRefused> | undefined)?._tag === "EditRefused"

export const tokenCredential = { credential: "token" } as const

// The page was sent the broker URL with its password as ***: the same URL back means the one in the file.
// A redacted URL edited (another host or port) keeps no password: the *** is not one, and the file's is not for that broker.
const unredacted = (mqtt: ConfigEdit["mqtt"], was: Plain | undefined): ConfigEdit["mqtt"] => {
  if (mqtt === undefined) return mqtt
  if (typeof was?.["url"] === "string" && mqtt.url === redactedUrl(was["url"])) return { ...mqtt, url: was["url"] }
  return { ...mqtt, url: mqtt.url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@]*?):\*\*\*@/iu, "$1@") }
}

const definedIn = (values: object | undefined): Plain => Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== undefined))

const withoutLogin = (mqtt: Plain | undefined): Plain | undefined =>
  mqtt === undefined ? undefined : Object.fromEntries(Object.entries(mqtt).filter(([name]) => name !== "username" && name !== "password"))

const sectionAfter = (before: Plain, edit: ConfigEdit, key: "service" | "mqtt"): Plain | undefined => {
  const section = isPlain(before[key]) ? before[key] : undefined
  const was = key === "mqtt" && edit.dropBrokerLogin === true ? withoutLogin(section) : section
  const given = key === "mqtt" ? definedIn(unredacted(edit.mqtt, section)) : {
    ...definedIn(edit.service),
    ...(edit.tokenCredential ? { token: tokenCredential } : {})
  }
  if (Object.keys(given).length === 0) return was
  return { ...was, ...given }
}

const sectionEdits = (text: string, root: YAMLMap, before: Plain, after: Plain | undefined, key: string): Edits | undefined => {
  const was = before[key]
  if (after === undefined || isDeepStrictEqual(was, after)) return noEdits
  const pair = pairOf(root, key)
  if (pair === undefined) {
    return { edits: [addSection(text, pairOf(root, "buttons") ?? pairOf(root, "places"), key, after)], keys: Object.keys(after).map((name) => `${key}.${name}`) }
  }
  const inside = isPlain(was) ? mapEdits(text, pair.value, was, after, key) : undefined
  if (inside !== undefined) return inside
  const replaced = replacePair(text, pair, key, after)
  return replaced === undefined ? undefined : { edits: [replaced], keys: [key] }
}

const listsOf = (edit: ConfigEdit): readonly [ListEdit, ListEdit] => [
  { section: "buttons", identity: "name", upserts: edit.buttons.map((value) => ({ replaces: String(value["name"]), value })) },
  { section: "places", identity: "key", upserts: [{ replaces: edit.replaces, value: edit.place }] }
]

/** The config as the edit makes it, through the Document API: what the text edits must come to, and the fallback text. */
const documentEdited = (doc: Document.Parsed, before: Plain, edit: ConfigEdit): Document | EntryGone => {
  const target = doc.clone()
  for (const key of ["service", "mqtt"] as const) {
    const after = sectionAfter(before, edit, key)
    if (after !== undefined && !isDeepStrictEqual(before[key], after)) target.set(key, target.createNode(after))
  }
  for (const list of listsOf(edit)) {
    if (list.upserts.length === 0) continue
    const after = upserted(before, list)
    if (isGone(after)) return after
    target.set(list.section, target.createNode(after))
  }
  return target
}

const parsedFile = (text: string): { readonly doc: Document.Parsed; readonly root: YAMLMap; readonly before: Plain } | EditRefused => {
  const doc = parseDocument(text, { uniqueKeys: true })
  const error = doc.errors[0]
  if (error !== undefined) {
    return refused(`config.yaml is not valid YAML (line ${error.linePos?.[0].line ?? "?"}): correct it by hand first, then reload this page`)
  }
  const before = doc.toJS({ maxAliasCount: 100 }) as unknown
  if (!isMap(doc.contents) || !isPlain(before)) return refused("config.yaml does not hold settings (key: value lines at the top): correct it by hand first")
  return { doc, root: doc.contents, before }
}

const gone = (entry: EntryGone) =>
  refused(`there is no place "${entry.identity}" in config.yaml any more (changed by hand?): reload this page`)

/**
 * The edit applied to the config's text: the parts it changes printed where they were, the rest
 * byte for byte. The result is checked against the same edit made with the Document API; if
 * they differ (a file written in a way the edits do not handle), the Document's own printing is used.
 */
export const editConfig = (text: string, edit: ConfigEdit): EditedConfig | EditRefused => {
  const file = parsedFile(text)
  if (isRefused(file)) return file
  const { doc, root, before } = file
  const expected = documentEdited(doc, before, edit)
  if (isGone(expected)) return gone(expected)
  const parts = [
    sectionEdits(text, root, before, sectionAfter(before, edit, "service"), "service"),
    sectionEdits(text, root, before, sectionAfter(before, edit, "mqtt"), "mqtt"),
    ...listsOf(edit).map((list) => listEdits(text, root, before, list))
  ]
  const places = [...new Set([edit.replaces, String(edit.place["key"])].filter((key): key is string => key !== null))]
  const spliced = parts.every((part): part is Edits => part !== undefined && !isGone(part)) ? joined(parts) : undefined
  const keys = spliced?.keys ?? []
  if (spliced !== undefined) {
    const edited = applyTextEdits(text, spliced.edits)
    if (sameContent(edited, expected)) return { text: edited, keys, places, rewritten: false }
  }
  return { text: expected.toString({ lineWidth: 0 }), keys: keys.length > 0 ? keys : places.map((key) => `places[${key}]`), places, rewritten: true }
}

const sameContent = (text: string, expected: Document): boolean => {
  const doc = parseDocument(text, { uniqueKeys: true })
  return doc.errors.length === 0 && isDeepStrictEqual(doc.toJS({ maxAliasCount: 100 }), expected.toJS({ maxAliasCount: 100 }))
}
