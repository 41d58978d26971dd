/**
 * The `:name` parts of `path` when it fits the route pattern `pattern` ("/api/listen/:id"), as the
 * setup server matches a request to its route: for tests that call route handles directly.
 */
export const matches = (pattern: string, path: string): Record<string, string> | undefined => {
  const want = pattern.split("/")
  const got = path.split("/")
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (const [i, part] of want.entries()) {
    if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(got[i]!)
    else if (part !== got[i]) return undefined
  }
  return params
}
