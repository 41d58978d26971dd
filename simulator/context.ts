import { notFound, statusFailure } from "./failure.ts"
import type { EventRecord, Organization, Place, Store } from "./store.ts"
import type { ViewContext } from "./views.ts"

/** What a `/public/` handler sees: the caller's organization (never its token) and the parsed request. */
export interface PublicContext {
  readonly store: Store
  readonly org: Organization
  readonly now: number
  readonly query: URLSearchParams
  readonly body: unknown
  readonly view: ViewContext
  readonly clipDelayMs: number
  readonly clipSpreadMs: number
}

/** `companyKey` authorizes the call: another organization's key is a 401, like a bad token. */
export const authorizeCompanyKey = (ctx: PublicContext, companyKey: unknown): void => {
  if (companyKey !== undefined && companyKey !== ctx.org.key) {
    throw statusFailure(401, "the token cannot act on this companyKey")
  }
}

export const requireEvent = (ctx: PublicContext, id: string | undefined): EventRecord => {
  const event = id === undefined ? undefined : ctx.store.event(ctx.org.key, id)
  if (event === undefined) throw notFound("event")
  return event
}

export const requirePlace = (ctx: PublicContext, placeKey: string | undefined): Place => {
  const place = placeKey === undefined ? undefined : ctx.store.place(ctx.org.key, placeKey)
  if (place === undefined) throw notFound("place")
  return place
}

export const utf8Bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8")
