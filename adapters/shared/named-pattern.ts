/**
 * Compiles a configured regular expression whose named groups must all be
 * among `known`, or says in words what is wrong with it (for config errors).
 */
export const compileNamedPattern = (
  source: string,
  known: ReadonlyArray<string>
): { readonly regex: RegExp; readonly groups: ReadonlyArray<string> } | string => {
  let regex: RegExp
  try {
    regex = new RegExp(source)
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    return `pattern is not a valid regular expression: ${error.message}`
  }
  // Matching the empty alternative lists every named group, whatever the pattern matches.
  const groups = Object.keys(new RegExp(`(?:${source})|`).exec("")?.groups ?? {})
  const unknown = groups.filter((name) => !known.includes(name))
  if (unknown.length > 0) return `pattern has unknown named group(s) ${unknown.join(", ")}; known: ${known.join(", ")}`
  return { regex, groups }
}
