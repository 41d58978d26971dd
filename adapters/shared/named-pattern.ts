import { RE2JS } from "re2js"

/**
 * A configured line pattern, run by RE2 (re2js): matching takes time linear in the line, whatever
 * the pattern, so a pattern such as `(a+)+$` cannot stall the daemon's loop as JavaScript's
 * backtracking engine would. The named groups of a match, undefined for a group that took no part.
 */
export interface LinePattern {
  readonly groups: (line: string) => Readonly<Record<string, string | undefined>> | undefined
}

const unsupported = /backreference|invalid escape sequence: `\\[1-9]|Perl syntax: `\(\?[=!<]|named capture: `\(\?<[=!]/u

const syntaxProblem = (error: Error): string =>
  unsupported.test(error.message)
    ? `pattern uses a backreference or lookaround, which the bridge does not run (it matches in linear time, with RE2): rewrite it without them (${error.message})`
    : `pattern is not a valid regular expression: ${error.message}`

// A named backreference `\k<name>` (after an even run of backslashes) would be read by the translation as plain text.
const namedBackreference = /(?:^|[^\\])(?:\\\\)*\\k</u

const compiled = (source: string): RE2JS | string => {
  if (namedBackreference.test(source)) return syntaxProblem(new Error(`backreference \\k<…> in \`${source}\``))
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source))
  } catch (error) {
    if (!(error instanceof Error)) throw error
    return syntaxProblem(error)
  }
}

const linePattern = (regex: RE2JS, names: ReadonlyArray<string>): LinePattern => ({
  groups: (line) => {
    const matcher = regex.matcher(line)
    if (!matcher.find()) return undefined
    return Object.fromEntries(names.map((name) => [name, matcher.group(name) ?? undefined]))
  }
})

/**
 * Compiles a configured regular expression whose named groups must all be among `known`, or says
 * in words what is wrong with it (for config errors). The one compiler of config patterns: the
 * config's decoder and the adapters' decoders both call it.
 */
export const compileNamedPattern = (
  source: string,
  known: ReadonlyArray<string>
): { readonly pattern: LinePattern; readonly groups: ReadonlyArray<string> } | string => {
  const regex = compiled(source)
  if (typeof regex === "string") return regex
  const groups = Object.keys(regex.namedGroups())
  const unknown = groups.filter((name) => !known.includes(name))
  if (unknown.length > 0) return `pattern has unknown named group(s) ${unknown.join(", ")}; known: ${known.join(", ")}`
  return { pattern: linePattern(regex, groups), groups }
}
