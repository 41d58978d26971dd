import { apiSports } from "../adapters/shared/api-sports.ts"

/** Sport codes from the service document's "Sport codes" section; `GET /public/sports` answers with this list. */
export const sportCodes = apiSports

export type SportCode = (typeof sportCodes)[number]
