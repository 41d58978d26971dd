import { Schema } from "effect"
import type { FieldError } from "./failure.ts"
import { utf8Bytes } from "./context.ts"
import { sportCodes } from "./sports.ts"

const Location = Schema.Struct({
  name: Schema.String,
  geoLoc: Schema.Struct({ lat: Schema.Finite, lng: Schema.Finite })
})

const PinCode = Schema.Int.check(Schema.isGreaterThanOrEqualTo(-1), Schema.isLessThanOrEqualTo(9999))

const EventMetadata = Schema.Record(Schema.String, Schema.Unknown).check(
  Schema.makeFilter((m) => utf8Bytes(m) <= 4000 ? undefined : "metadata exceeds 4000 bytes as UTF-8 JSON")
)

const optionalFields = {
  companyKey: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String.check(Schema.isMinLength(1, { message: "name must not be empty" }))),
  location: Schema.optional(Location),
  description: Schema.optional(Schema.String),
  notSearchable: Schema.optional(Schema.Boolean),
  placeKey: Schema.optional(Schema.NonEmptyString),
  scheduledStartTime: Schema.optional(Schema.Int),
  scheduledEndTime: Schema.optional(Schema.Int),
  thumbnailURL: Schema.optional(Schema.String),
  homeTeam: Schema.optional(Schema.String),
  awayTeam: Schema.optional(Schema.String),
  sport: Schema.optional(Schema.Literals(sportCodes)),
  pinCode: Schema.optional(PinCode),
  cameraPinCode: Schema.optional(PinCode),
  metadata: Schema.optional(EventMetadata),
  hiddenDevices: Schema.optional(Schema.Record(Schema.String, Schema.Unknown))
}

export const EventPatchBody = Schema.Struct(optionalFields)

export const EventCreateBody = Schema.Struct({
  ...optionalFields,
  companyKey: Schema.String,
  name: Schema.String.check(Schema.isMinLength(1, { message: "name must not be empty" }))
})

export type EventPatch = typeof EventPatchBody.Type

/** The document's id rule: ASCII `-`, `_`, digits, letters; at most 64 bytes. */
export const validExternalID = (id: string): boolean => /^[A-Za-z0-9_-]{1,64}$/.test(id)

const minimumLengthMs = 5 * 60_000

/** Scheduling rules: both times or none, both in the future, end at least 5 minutes after start. */
export function scheduleErrors(start: number | undefined, end: number | undefined, now: number): Array<FieldError> {
  if (start === undefined && end === undefined) return []
  if (start === undefined) return [{ field: "scheduledStartTime", message: "scheduledStartTime and scheduledEndTime are given together" }]
  if (end === undefined) return [{ field: "scheduledEndTime", message: "scheduledStartTime and scheduledEndTime are given together" }]
  const errors: Array<FieldError> = []
  if (start <= now) errors.push({ field: "scheduledStartTime", message: "scheduledStartTime must be in the future" })
  if (end < start + minimumLengthMs) errors.push({ field: "scheduledEndTime", message: "scheduledEndTime must be at least 5 minutes after scheduledStartTime" })
  return errors
}
