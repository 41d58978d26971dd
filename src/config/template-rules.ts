/**
 * The service's HTML template rules, checked by plain scanning: templates are
 * small hand-written files, and a scanner that errs towards reporting keeps a
 * click from being rejected by the service later (a highlight lost).
 */

const comment = /<!--[\s\S]*?(?:-->|$)/gu
// A tag's attributes may hold quoted `>`; unquoted text stops at `>`.
const metaTag = /<meta(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>/giu
const attribute = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/gu
// Any `<script` entry counts, also in a comment: whether the service's own check skips comments is not documented.
const scriptTag = /<script(?![\w-])/giu
const stylesheetLink = /<link(?=[\s/>])(?:[^>"']|"[^"]*"|'[^']*')*\brel\s*=\s*["']?stylesheet/iu
// Innermost brackets only: `[[name]]` is the placeholder `name` in literal brackets.
const placeholder = /\[([^[\]\s<>"'=]+)\]/gu
const pixels = /^\s*\d+(?:\.\d+)?\s*$/u

/** Attribute names lower-cased, as HTML treats them (`renderWidth` = `renderwidth`). */
const attributesOf = (tagBody: string): Map<string, string> => {
  const attributes = new Map<string, string>()
  for (const match of tagBody.matchAll(attribute)) {
    const name = (match[1] ?? "").toLowerCase()
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? "")
  }
  return attributes
}

const sizeNames = [["renderwidth", "renderWidth"], ["renderheight", "renderHeight"]] as const

const sizeProblemsOf = (meta: Map<string, string>): Array<string> =>
  sizeNames.flatMap(([key, name]) => {
    const value = meta.get(key)
    if (value === undefined) return [`the meta entry with the render size lacks ${name}: give renderWidth and renderHeight on one meta entry`]
    return pixels.test(value) && Number(value) > 0 ? [] : [`meta ${name} must be a number of pixels above 0, got ${JSON.stringify(value)}`]
  })

const renderSizeProblems = (html: string): Array<string> => {
  const metas = [...html.replace(comment, " ").matchAll(metaTag)].map((match) => attributesOf(match[1] ?? ""))
  const sized = metas.filter((meta) => meta.has("renderwidth") || meta.has("renderheight"))
  if (sized.length === 0) {
    return ['add <meta renderWidth="…" renderHeight="…"> with the template\'s natural size in pixels: the service requires it']
  }
  const problems = sized.map(sizeProblemsOf)
  return problems.some((list) => list.length === 0) ? [] : problems[0] ?? []
}

const scriptProblems = (html: string): Array<string> => {
  const count = [...html.matchAll(scriptTag)].length
  return count === 0 ? [] : [`remove the script entry (${count} <script found): the service permits no script in a template`]
}

/** The placeholder names of a template, each once, in order of first use. */
export const templatePlaceholders = (html: string): ReadonlyArray<string> =>
  [...new Set([...html.matchAll(placeholder)].map((match) => match[1] ?? ""))]

/**
 * Problems that make the service refuse the template or render it wrongly:
 * the render-size meta entry, a script entry, placeholders without a value
 * (an empty string counts as a value). Empty when the template passes.
 */
export const checkTemplate = (html: string, values: Readonly<Record<string, string>>): ReadonlyArray<string> => [
  ...renderSizeProblems(html),
  ...scriptProblems(html),
  ...templatePlaceholders(html)
    .filter((name) => !Object.hasOwn(values, name))
    .map((name) => `values.${name}: missing for the template's placeholder [${name}] (an empty string is allowed)`)
]

/** Worth a warning, not a refusal: values the template never uses, stylesheets that are not inline. */
export const templateNotes = (html: string, values: Readonly<Record<string, string>>): ReadonlyArray<string> => {
  const used = new Set(templatePlaceholders(html))
  const notes = Object.keys(values)
    .filter((name) => !used.has(name))
    .map((name) => `values.${name} is not used: the template has no [${name}]`)
  if (stylesheetLink.test(html.replace(comment, " "))) {
    notes.push("the template links a stylesheet: the service uses only CSS inline in style entries")
  }
  return notes
}
