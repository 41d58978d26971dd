import { Schema } from "effect"
import { controlCharacterProblem } from "./names.ts"
import { httpsProblem } from "./urls.ts"

/**
 * Live fields a template value may use, written `{{name}}`; the click builder
 * fills them at the press. `team…` are the clicked team's. Penalties, fouls and
 * time-outs come from boards that send them (an empty text elsewhere). `lane`,
 * `place`, `time`, `event`, `heat` and `swimmer` are a finish click's swimmer
 * (empty on every other click; `swimmer` until a protocol gives names).
 */
export const liveFields = [
  "homeTeam", "awayTeam", "homeScore", "awayScore", "period", "team", "teamScore",
  "homePenalties", "awayPenalties", "teamPenalties", "homeFouls", "awayFouls", "teamFouls",
  "homeTimeouts", "awayTimeouts", "teamTimeouts",
  "lane", "place", "time", "event", "heat", "swimmer"
] as const
export type LiveField = (typeof liveFields)[number]

// Spaces inside the braces are tolerated, as the click builder does (src/clicks/live-values.ts).
const liveFieldToken = /\{\{\s*([^{}]*?)\s*\}\}/gu

/** The `{{…}}` names used in `text`, known or not, in order of appearance. */
export const liveFieldsIn = (text: string): ReadonlyArray<string> => Array.from(text.matchAll(liveFieldToken), (match) => match[1]!)

const isLiveField = (name: string): name is LiveField => (liveFields as ReadonlyArray<string>).includes(name)
const known = liveFields.map((name) => `{{${name}}}`).join(", ")

const ValueText = Schema.String.check(Schema.makeFilter((text: string) => {
  const unknown = liveFieldsIn(text).filter((name) => !isLiveField(name))
  if (unknown.length > 0) return `unknown live field ${unknown.map((name) => `{{${name}}}`).join(", ")} (known: ${known})`
  // A stray brace pair would reach the video as literal text.
  if (/\{\{|\}\}/u.test(text.replace(liveFieldToken, ""))) return `has an unmatched {{ or }}; live fields are written {{homeTeam}} (known: ${known})`
  return controlCharacterProblem(text)
})).annotate({ description: `Text for the placeholder; may contain live fields ${known}.` })

// Record keys that fail their schema are reported as unknown keys; checking the names afterwards explains them.
const placeholderNames = Schema.makeFilter((values: Readonly<Record<string, string>>) =>
  Object.keys(values).filter((name) => !/^[^[\]\s]+$/u.test(name)).map((name) => ({
    path: [name],
    issue: "must be a placeholder name as written in the template, without its brackets: [score] → score"
  }))
)

const OverlayUrl = (example: string) =>
  Schema.String.check(Schema.makeFilter(
    // The service fetches it: a URL only this machine can reach works only with the local simulator.
    (text: string) => httpsProblem(text, example, "the service fetches it from the internet"),
    { toJsonSchema: () => ({ pattern: "^https?://" }) }
  ))

const Percent = (description: string) =>
  Schema.Finite.check(Schema.makeFilter((n: number) => n > 0 && n <= 100 ? undefined : "must be a percentage above 0 and at most 100", {
    toJsonSchema: () => ({ exclusiveMinimum: 0, maximum: 100 })
  })).annotate({ description })

// 0 is meaningful for a margin: flush with the edge of the video.
const MarginPercent = (description: string) =>
  Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 100 }, { message: "must be a percentage from 0 to 100" })).annotate({ description })

const Millis = (description: string) =>
  Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a whole number of ms, 0 or more" })).annotate({ description })

const OverlayFields = Schema.Struct({
  imageSource: Schema.optionalKey(OverlayUrl("https://example.com/logo.png").annotate({
    description: "URL of a freely accessible PNG or JPEG (a logo); its aspect ratio is kept."
  })),
  templateSource: Schema.optionalKey(OverlayUrl("https://example.com/scorebug.html").annotate({
    description: "URL of a freely accessible HTML template, rendered with `values` (instead of imageSource)."
  })),
  templateFile: Schema.optionalKey(Schema.String.check(
    Schema.isPattern(/^\//u, { message: "must be an absolute path such as /etc/scorebridge/scorebug.html" })
  ).annotate({
    description: "Local copy of the template, checked at start-up (renderWidth/renderHeight meta entry, no script, a value for every [placeholder])."
  })),
  values: Schema.optionalKey(Schema.Record(Schema.String, ValueText).annotate({
    description: "Template placeholder name (without brackets) → text. Required with templateSource."
  }).check(placeholderNames)),
  position: Schema.optionalKey(Schema.Struct({
    horizontal: Schema.Literals(["left", "center", "right"]).annotate({ description: "left | center | right" }),
    vertical: Schema.Literals(["top", "center", "bottom"]).annotate({ description: "top | center | bottom" })
  }).annotate({ description: "Where the overlay sits in the video." })),
  heightPercentOfHeight: Schema.optionalKey(Percent("Overlay height as % of the video height (give this or widthPercentOfWidth).")),
  widthPercentOfWidth: Schema.optionalKey(Percent("Overlay width as % of the video width (give this or heightPercentOfHeight).")),
  marginPercentOfHeight: Schema.optionalKey(MarginPercent("Margin as % of the video height (at most one of the two margins).")),
  marginPercentOfWidth: Schema.optionalKey(MarginPercent("Margin as % of the video width (at most one of the two margins).")),
  startTime: Schema.optionalKey(Millis("Shown from this many ms after the clip's start; default: from the start.")),
  duration: Schema.optionalKey(Millis("Shown for this many ms; default: until the clip's end."))
})

type OverlayInput = typeof OverlayFields.Type

// The service silently picks a winner where these conflict: a config that relies on it is a mistake.
const overlayRules = Schema.makeFilter<OverlayInput>((o) => {
  const issues: Array<Schema.FilterIssue> = []
  if (o.imageSource === undefined && o.templateSource === undefined) {
    issues.push("give imageSource: (a PNG or JPEG) or templateSource: (an HTML template)")
  }
  if (o.imageSource !== undefined && o.templateSource !== undefined) {
    issues.push({ path: ["templateSource"], issue: "give imageSource or templateSource, not both — an overlay is one picture" })
  }
  if (o.templateSource !== undefined && o.values === undefined) {
    issues.push({ path: ["values"], issue: "required with templateSource: a value for every [placeholder] of the template (\"\" is allowed)" })
  }
  if (o.imageSource !== undefined && o.values !== undefined) {
    issues.push({ path: ["values"], issue: "only for templateSource: an image has no placeholders" })
  }
  if (o.imageSource !== undefined && o.templateFile !== undefined) {
    issues.push({ path: ["templateFile"], issue: "only for templateSource: it is the local copy of the template" })
  }
  if (o.heightPercentOfHeight === undefined && o.widthPercentOfWidth === undefined) {
    issues.push("give heightPercentOfHeight: or widthPercentOfWidth: — the overlay's size; the other side follows its aspect ratio")
  }
  if (o.heightPercentOfHeight !== undefined && o.widthPercentOfWidth !== undefined) {
    issues.push({
      path: ["widthPercentOfWidth"],
      issue: "give heightPercentOfHeight or widthPercentOfWidth, not both — the service would use heightPercentOfHeight and ignore this"
    })
  }
  if (o.marginPercentOfHeight !== undefined && o.marginPercentOfWidth !== undefined) {
    issues.push({
      path: ["marginPercentOfWidth"],
      issue: "give at most one of marginPercentOfHeight and marginPercentOfWidth — the service would use marginPercentOfHeight and ignore this"
    })
  }
  return issues
}, {
  toJsonSchema: () => ({
    allOf: [
      { oneOf: [{ required: ["imageSource"] }, { required: ["templateSource", "values"] }] },
      { oneOf: [{ required: ["heightPercentOfHeight"] }, { required: ["widthPercentOfWidth"] }] },
      { not: { required: ["marginPercentOfHeight", "marginPercentOfWidth"] } }
    ]
  })
})

/** An overlay as the service's API defines it, with its rules checked here rather than discovered in a 400. */
export const Overlay = OverlayFields.annotate({
  description: "A picture burned into each clip of the click: imageSource (a logo) or templateSource + values."
}).check(overlayRules)
export type Overlay = typeof Overlay.Type
