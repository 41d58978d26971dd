import { Schema } from "effect"
import { authorizeCompanyKey, requirePlace, type PublicContext } from "./context.ts"
import { notFound } from "./failure.ts"
import { decodeQuery, QueryInt } from "./query.ts"
import { ok, type Route } from "./router.ts"
import { type EventRecord, isOpen } from "./store.ts"
import { eventShort } from "./views.ts"

const LookupQuery = Schema.Struct({
  placeKey: Schema.NonEmptyString,
  year: QueryInt(1970, 9999),
  month: QueryInt(1, 12),
  day: QueryInt(1, 31),
  hour: QueryInt(0, 23)
})

const startOf = (e: EventRecord): number | undefined => e.startTime ?? e.info.scheduledStartTime

/** The event on the place that started within the hour after the given UTC time; 404 when none does. */
const lookupByPlaceAndTime = (ctx: PublicContext) => {
  const q = decodeQuery(ctx, LookupQuery)
  const place = requirePlace(ctx, q.placeKey)
  const from = Date.UTC(q.year, q.month - 1, q.day, q.hour)
  const found = ctx.store.events
    .filter((e) => e.companyKey === ctx.org.key && e.info.placeKey === place.key)
    .filter((e) => { const s = startOf(e); return s !== undefined && s >= from && s < from + 3_600_000 })
    .sort((a, b) => (startOf(a) ?? 0) - (startOf(b) ?? 0))[0]
  if (found === undefined) throw notFound("event")
  return ok({ eventKey: found.key })
}

const SearchQuery = Schema.Struct({
  companyKey: Schema.NonEmptyString,
  state: Schema.Literals(["future", "current", "past"]),
  pageSize: QueryInt(1, 1000),
  page: QueryInt(0)
})

const inState = {
  future: (e: EventRecord) => e.startTime === undefined && e.endTime === undefined,
  current: isOpen,
  past: (e: EventRecord) => e.endTime !== undefined
}

const order = {
  future: (a: EventRecord, b: EventRecord) => (a.info.scheduledStartTime ?? 0) - (b.info.scheduledStartTime ?? 0),
  current: (a: EventRecord, b: EventRecord) => (a.startTime ?? 0) - (b.startTime ?? 0),
  past: (a: EventRecord, b: EventRecord) => (b.startTime ?? 0) - (a.startTime ?? 0)
}

const searchByCompany = (ctx: PublicContext) => {
  const q = decodeQuery(ctx, SearchQuery)
  authorizeCompanyKey(ctx, q.companyKey)
  const matching = ctx.store.events.filter((e) => e.companyKey === q.companyKey && inState[q.state](e)).sort(order[q.state])
  const page = matching.slice(q.page * q.pageSize, (q.page + 1) * q.pageSize)
  return ok({ page: q.page, pageSize: q.pageSize, totalCount: matching.length, events: page.map(eventShort) })
}

export const lookupRoutes: ReadonlyArray<Route<PublicContext>> = [
  { method: "GET", pattern: "/public/event-lookup-by-place-and-time", handle: lookupByPlaceAndTime },
  { method: "GET", pattern: "/public/event-search-by-company", handle: searchByCompany }
]
