import { Schema } from "effect"
import { authorizeCompanyKey, requirePlace, type PublicContext } from "./context.ts"
import { decodeQuery } from "./query.ts"
import { ok, type Route } from "./router.ts"
import { sportCodes } from "./sports.ts"
import { validateScoreEntry } from "./validate-score.ts"
import { placeView } from "./views.ts"

const CompanyQuery = Schema.Struct({ companyKey: Schema.NonEmptyString })

const listPlaces = (ctx: PublicContext) => {
  const { companyKey } = decodeQuery(ctx, CompanyQuery)
  authorizeCompanyKey(ctx, companyKey)
  const places = ctx.store.places.filter((p) => p.companyKey === companyKey)
  return ok({ places: places.map((p) => placeView(p, ctx.store.activeEvent(p.key)?.key)) })
}

const activeEventKey = (ctx: PublicContext, { placeKey }: Readonly<Record<string, string>>) => {
  const place = requirePlace(ctx, placeKey)
  const event = ctx.store.activeEvent(place.key)
  if (event === undefined) return { status: 404, body: { error: "no event is active on the place" } }
  return ok({ activeEventKey: event.key })
}

/** Validated by the running event's sport, else the place's, so a bad entry is a 400 either way. */
const addPlaceScore = (ctx: PublicContext, { placeKey }: Readonly<Record<string, string>>) => {
  const place = requirePlace(ctx, placeKey)
  const event = ctx.store.activeEvent(place.key)
  const fields = validateScoreEntry(event?.info.sport ?? place.sport, ctx.body)
  if (event === undefined) return ok({ warning: "no event is running on the place; the score was dropped" })
  const entry = ctx.store.addScore(event, fields)
  return ok({ eventKey: event.key, key: entry.key })
}

export const placeRoutes: ReadonlyArray<Route<PublicContext>> = [
  { method: "GET", pattern: "/public/sports", handle: () => ok({ sports: sportCodes }) },
  { method: "GET", pattern: "/public/places", handle: listPlaces },
  { method: "GET", pattern: "/public/places/:placeKey/activeEventKey", handle: activeEventKey },
  { method: "POST", pattern: "/public/places/:placeKey/score", handle: addPlaceScore }
]
