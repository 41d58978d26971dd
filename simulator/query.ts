import { Schema } from "effect"
import { decodeOr400 } from "./failure.ts"
import type { PublicContext } from "./context.ts"

/** A query parameter holding an integer within bounds. */
export const QueryInt = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  Schema.FiniteFromString.pipe(Schema.decodeTo(Schema.Int.check(Schema.isBetween({ minimum, maximum }))))

/** Decodes the query string as an object, so a missing or bad parameter is a 400 naming it. */
export const decodeQuery = <S extends Schema.ConstraintDecoder<unknown>>(ctx: PublicContext, schema: S): S["Type"] =>
  decodeOr400(schema, Object.fromEntries(ctx.query))
