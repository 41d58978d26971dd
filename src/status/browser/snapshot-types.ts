/**
 * /status.json as the page reads it: the wire shape of its one Schema (src/status/json/), a
 * type-only import erased from the bundle, so a changed snapshot fails the page's typecheck.
 */
import type { StatusJson } from "../json/status-json.ts"

export type Snapshot = typeof StatusJson.Encoded
export type PlaceStatus = Snapshot["places"][number]
export type Answer = NonNullable<PlaceStatus["lastPress"]>["answer"]
export type Click = NonNullable<PlaceStatus["lastClick"]>
export type Race = NonNullable<PlaceStatus["race"]>
export type Finish = Race["finishes"][number]
export type ScoreEntry = NonNullable<PlaceStatus["lastEntry"]>["entry"]
