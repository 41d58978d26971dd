import type { Overlay } from "../service/schemas.ts"

/**
 * The service's Overlay rules, checked on the final overlay just before it is
 * sent. The config schema checks the static parts already; this catches what
 * filling live values or a future code path could break, because a click the
 * service rejects is a highlight lost. Each problem is one line naming the field.
 */
export const checkOverlay = (overlay: Overlay): ReadonlyArray<string> => [
  ...sourceProblems(overlay),
  ...sizeProblems(overlay),
  ...marginProblems(overlay),
  ...positionProblems(overlay),
  ...timeProblems(overlay)
]

const horizontal: ReadonlyArray<unknown> = ["left", "center", "right"]
const vertical: ReadonlyArray<unknown> = ["top", "center", "bottom"]

const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text)
    return url.protocol === "https:" || url.protocol === "http:"
  } catch {
    return false
  }
}

const sourceProblems = (o: Overlay): Array<string> => {
  const problems: Array<string> = []
  if (o.imageSource === undefined && o.templateSource === undefined) {
    problems.push("give imageSource (a PNG or JPEG URL) or templateSource (an HTML template URL)")
  }
  if (o.imageSource !== undefined && o.templateSource !== undefined) {
    problems.push("give imageSource or templateSource, not both")
  }
  for (const key of ["imageSource", "templateSource"] as const) {
    const url = o[key]
    // The service fetches the source itself: it must be a URL it can reach, not a local path.
    if (url !== undefined && !isHttpUrl(url)) problems.push(`${key}: must be an http(s) URL the service can download, got ${JSON.stringify(url)}`)
  }
  if (o.templateSource !== undefined && o.values === undefined) {
    problems.push("values: required with templateSource (one string per [placeholder]; {} when the template has none)")
  }
  for (const [name, value] of Object.entries(o.values ?? {})) {
    if (typeof value !== "string") problems.push(`values.${name}: must be a string, got ${typeof value}`)
  }
  return problems
}

const isPercent = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= 100

const sizeProblems = (o: Overlay): Array<string> => {
  const given = (["heightPercentOfHeight", "widthPercentOfWidth"] as const).filter((key) => o[key] !== undefined)
  if (given.length === 0) return ["give heightPercentOfHeight or widthPercentOfWidth: the overlay's size as % of the video"]
  if (given.length === 2) {
    // The service would silently use the height: the width the operator wrote would be ignored.
    return ["give only one of heightPercentOfHeight and widthPercentOfWidth: the other follows the aspect ratio"]
  }
  return given.flatMap((key) => {
    const percent = o[key]
    return isPercent(percent) && percent > 0 ? [] : [`${key}: must be a number above 0 and at most 100, got ${String(percent)}`]
  })
}

const marginProblems = (o: Overlay): Array<string> => {
  const given = (["marginPercentOfHeight", "marginPercentOfWidth"] as const).filter((key) => o[key] !== undefined)
  if (given.length === 2) return ["give at most one of marginPercentOfHeight and marginPercentOfWidth"]
  return given.flatMap((key) =>
    isPercent(o[key]) ? [] : [`${key}: must be a number from 0 to 100, got ${String(o[key])}`]
  )
}

const positionProblems = (o: Overlay): Array<string> => {
  const problems: Array<string> = []
  const h: unknown = o.position?.horizontal
  const v: unknown = o.position?.vertical
  if (h !== undefined && !horizontal.includes(h)) problems.push(`position.horizontal: must be left, center or right, got ${JSON.stringify(h)}`)
  if (v !== undefined && !vertical.includes(v)) problems.push(`position.vertical: must be top, center or bottom, got ${JSON.stringify(v)}`)
  return problems
}

const timeProblems = (o: Overlay): Array<string> =>
  (["startTime", "duration"] as const).flatMap((key) => {
    const ms: unknown = o[key]
    return ms === undefined || (typeof ms === "number" && Number.isFinite(ms) && ms >= 0)
      ? []
      : [`${key}: must be a number of ms, 0 or more, got ${String(ms)}`]
  })
