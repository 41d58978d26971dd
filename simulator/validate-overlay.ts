import { Schema } from "effect"

const NonNegative = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))
const Percent = Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(100))

const OverlayFields = Schema.Struct({
  imageSource: Schema.optional(Schema.NonEmptyString),
  templateSource: Schema.optional(Schema.NonEmptyString),
  values: Schema.optional(Schema.Record(Schema.String, Schema.String)),
  position: Schema.optional(Schema.Struct({
    horizontal: Schema.optional(Schema.Literals(["left", "center", "right"])),
    vertical: Schema.optional(Schema.Literals(["top", "center", "bottom"]))
  })),
  heightPercentOfHeight: Schema.optional(Percent),
  widthPercentOfWidth: Schema.optional(Percent),
  // Margins are percentages too, but 0 (flush to the edge) is meaningful.
  marginPercentOfHeight: Schema.optional(NonNegative),
  marginPercentOfWidth: Schema.optional(NonNegative),
  startTime: Schema.optional(NonNegative),
  duration: Schema.optional(NonNegative)
})

type OverlayInput = typeof OverlayFields.Type

/**
 * The document's cross-field Overlay rules. Both sizes or both margins given is
 * accepted (the height one wins); none is not. The template itself cannot be
 * fetched here, so only its `values` requirement is checked.
 */
const overlayRules = Schema.makeFilter<OverlayInput>((o) => {
  const issues: Array<Schema.FilterIssue> = []
  if (o.imageSource === undefined && o.templateSource === undefined) {
    issues.push({ path: ["imageSource"], issue: "one of imageSource and templateSource is required" })
  }
  if (o.imageSource !== undefined && o.templateSource !== undefined) {
    issues.push({ path: ["templateSource"], issue: "give imageSource or templateSource, not both" })
  }
  if (o.templateSource !== undefined && o.values === undefined) {
    issues.push({ path: ["values"], issue: "values is required with templateSource" })
  }
  if (o.heightPercentOfHeight === undefined && o.widthPercentOfWidth === undefined) {
    issues.push({ path: ["heightPercentOfHeight"], issue: "exactly one of heightPercentOfHeight and widthPercentOfWidth is required" })
  }
  return issues
})

export const Overlay = OverlayFields.check(overlayRules)
export const Overlays = Schema.Array(Overlay)
