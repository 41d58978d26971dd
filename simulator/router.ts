/** A handler's answer; thrown `HttpFailure`s are the other answers. */
export interface Reply {
  readonly status: number
  readonly body: unknown
}

export const ok = (body: unknown): Reply => ({ status: 200, body })

export interface Route<Ctx> {
  readonly method: string
  readonly pattern: string
  readonly handle: (ctx: Ctx, params: Readonly<Record<string, string>>) => Reply
}

export interface CompiledRoute<Ctx> extends Route<Ctx> {
  readonly regex: RegExp
  readonly names: ReadonlyArray<string>
}

/** `/public/events/:eventKey/score` → a regex capturing one path segment per `:name`. */
export const compile = <Ctx>(routes: ReadonlyArray<Route<Ctx>>): ReadonlyArray<CompiledRoute<Ctx>> =>
  routes.map((route) => {
    const names: Array<string> = []
    const source = route.pattern.split("/").map((segment) => {
      if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      names.push(segment.slice(1))
      return "([^/]+)"
    }).join("/")
    return { ...route, regex: new RegExp(`^${source}$`), names }
  })

export const match = <Ctx>(routes: ReadonlyArray<CompiledRoute<Ctx>>, method: string, path: string) => {
  for (const route of routes) {
    if (route.method !== method) continue
    const found = route.regex.exec(path)
    if (found === null) continue
    const params: Record<string, string> = {}
    route.names.forEach((name, i) => { params[name] = decodeURIComponent(found[i + 1] ?? "") })
    return { route, params }
  }
  return undefined
}
