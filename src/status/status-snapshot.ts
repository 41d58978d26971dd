import type { DecoderStats } from "../../adapters/decoder.ts"
import type { LinkKind } from "../config/scoreboard-link.ts"
import type { OutboxDiskStats } from "../delivery/slow-disk.ts"
import type { LateClick } from "../domain/press-result.ts"
import type { LaneBoard, RaceBoard } from "../domain/race.ts"
import type { Reading } from "../domain/reading.ts"
import type { Answer } from "./item-answer.ts"
import type { Badge } from "./liveness.ts"
import type { PastBacklog } from "./past-backlog.ts"
import type { ErrorNote, LastEntry, LastPress } from "./place-tracker.ts"
import type { RollbackNotice } from "./rollback-notice.ts"
import type { VenueClock } from "./venue-clock.ts"
import type * as Place from "./json/place-json.ts"
import type { LaneBoardJson, RaceBoardJson, ReadingJson } from "./json/reading-json.ts"
import type * as Status from "./json/status-json.ts"

/**
 * The snapshot `/status.json` serves, the page draws and /metrics counts from: the types of its
 * Schema (src/status/json/), so what the model makes is what the server encodes and what the
 * readers decode. Field by field documentation is on the Schema.
 */
export type LastClick = typeof Place.LastClickJson.Type
export type ClipProblem = typeof Place.ClipProblemJson.Type
export type FinishStatus = typeof Place.FinishStatusJson.Type
export type RaceStatus = typeof Place.RaceStatusJson.Type
export type PlaceStatus = typeof Place.PlaceStatusJson.Type
export type LinkStatus = typeof Status.LinkStatusJson.Type
export type TokenStatus = typeof Status.TokenStatusJson.Type
export type StatusSnapshot = typeof Status.StatusJson.Type

// The lower layers' types and the Schema's are one type: an edit to either that breaks that fails the typecheck here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameTypes: ReadonlyArray<true> = [
  true satisfies Same<typeof ReadingJson.Type, Reading>,
  true satisfies Same<typeof RaceBoardJson.Type, RaceBoard>,
  true satisfies Same<typeof LaneBoardJson.Type, LaneBoard>,
  true satisfies Same<typeof Place.DecoderStatsJson.Type, DecoderStats>,
  true satisfies Same<typeof Place.AnswerJson.Type, Answer>,
  true satisfies Same<typeof Place.BadgeJson.Type, Badge>,
  true satisfies Same<typeof Place.LastEntryJson.Type, LastEntry>,
  true satisfies Same<typeof Place.LastPressJson.Type, LastPress>,
  true satisfies Same<NonNullable<LastPress["late"]>, LateClick>,
  true satisfies Same<typeof Place.ErrorNoteJson.Type, ErrorNote>,
  true satisfies Same<typeof Place.PastBacklogJson.Type, PastBacklog>,
  true satisfies Same<PlaceStatus["source"]["link"], LinkKind | "buttons only">,
  true satisfies Same<typeof Status.OutboxDiskJson.Type, OutboxDiskStats>,
  true satisfies Same<typeof Status.VenueClockJson.Type, VenueClock>,
  true satisfies Same<typeof Status.RollbackNoticeJson.Type, RollbackNotice>
]
void sameTypes
