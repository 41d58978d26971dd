import type { SetupRoute } from "./setup-route.ts"

export interface MatchedRoute {
  readonly route: SetupRoute
  readonly params: Readonly<Record<string, string>>
}

const segmentsOf = (path: string) => path.split("/").filter((segment) => segment !== "")

// A malformed escape is not a value any route can use: the path matches nothing.
const decoded = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** The `:name` values when `path` fits `pattern` segment for segment, else undefined. */
export const matchPath = (pattern: string, path: string): Readonly<Record<string, string>> | undefined => {
  const want = segmentsOf(pattern)
  const have = segmentsOf(path)
  if (want.length !== have.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const value = decoded(have[i]!)
    if (value === undefined) return undefined
    if (want[i]!.startsWith(":")) params[want[i]!.slice(1)] = value
    else if (want[i] !== value) return undefined
  }
  return params
}

/** The route for `method` and `path`: HEAD is served by the GET route (its body left out). */
export const findRoute = (routes: ReadonlyArray<SetupRoute>, method: string, path: string): MatchedRoute | undefined => {
  const asMethod = method === "HEAD" ? "GET" : method
  for (const route of routes) {
    if (route.method !== asMethod) continue
    const params = matchPath(route.path, path)
    if (params !== undefined) return { route, params }
  }
  return undefined
}
