import { describe, expect, it } from "vitest"
import { checkOverlay } from "../../src/clicks/overlay-rules.ts"
import type { Overlay } from "../../src/service/schemas.ts"

const image: Overlay = {
  imageSource: "https://example.com/logo.png",
  position: { horizontal: "right", vertical: "top" },
  widthPercentOfWidth: 15,
  marginPercentOfHeight: 2
}

const template: Overlay = {
  templateSource: "https://example.com/bug.html",
  values: { score: "3-1" },
  heightPercentOfHeight: 10,
  startTime: 0,
  duration: 5000
}

/** An overlay as it could arrive from code that bypassed the types (a bug, or JSON from elsewhere). */
const loose = (fields: Record<string, unknown>): Overlay => fields as Overlay

const problemsOf = (overlay: Overlay) => checkOverlay(overlay).join("\n")

describe("checkOverlay", () => {
  it("passes valid image and template overlays", () => {
    expect(checkOverlay(image)).toEqual([])
    expect(checkOverlay(template)).toEqual([])
    expect(checkOverlay({ ...template, values: {}, marginPercentOfWidth: 0 })).toEqual([])
  })

  it("needs exactly one source, as an http(s) URL", () => {
    const { imageSource: _, ...sourceless } = image
    expect(problemsOf(sourceless)).toMatch(/give imageSource .* or templateSource/u)
    expect(problemsOf({ ...template, imageSource: "https://example.com/logo.png" })).toMatch(/not both/u)
    expect(problemsOf({ ...image, imageSource: "/srv/logo.png" })).toMatch(/imageSource: must be an http\(s\) URL/u)
    expect(problemsOf({ ...template, templateSource: "ftp://example.com/bug.html" })).toMatch(/templateSource: must be an http\(s\) URL/u)
  })

  it("needs values with a template, all strings", () => {
    const { values: _, ...valueless } = template
    expect(problemsOf(valueless)).toMatch(/values: required with templateSource/u)
    expect(problemsOf(loose({ ...template, values: { score: 3 } }))).toMatch(/values\.score: must be a string, got number/u)
  })

  it("needs exactly one of the size percentages, above 0 and at most 100", () => {
    const { widthPercentOfWidth: _, ...sizeless } = image
    expect(problemsOf(sizeless)).toMatch(/give heightPercentOfHeight or widthPercentOfWidth/u)
    expect(problemsOf({ ...image, heightPercentOfHeight: 10 })).toMatch(/only one of heightPercentOfHeight and widthPercentOfWidth/u)
    expect(problemsOf({ ...image, widthPercentOfWidth: 0 })).toMatch(/widthPercentOfWidth: must be a number above 0/u)
    expect(problemsOf({ ...image, widthPercentOfWidth: 101 })).toMatch(/widthPercentOfWidth: must be a number above 0/u)
    expect(problemsOf({ ...template, heightPercentOfHeight: Number.NaN })).toMatch(/heightPercentOfHeight: must be a number/u)
  })

  it("allows at most one margin, from 0 to 100", () => {
    expect(problemsOf({ ...image, marginPercentOfWidth: 1 })).toMatch(/at most one of marginPercentOfHeight and marginPercentOfWidth/u)
    expect(problemsOf({ ...image, marginPercentOfHeight: -1 })).toMatch(/marginPercentOfHeight: must be a number from 0 to 100/u)
  })

  it("allows only the documented position values", () => {
    expect(problemsOf(loose({ ...image, position: { horizontal: "middle", vertical: "top" } })))
      .toMatch(/position\.horizontal: must be left, center or right, got "middle"/u)
    expect(problemsOf(loose({ ...image, position: { horizontal: "left", vertical: "Bottom" } })))
      .toMatch(/position\.vertical: must be top, center or bottom, got "Bottom"/u)
    expect(checkOverlay({ ...image, position: { horizontal: "center" } })).toEqual([])
  })

  it("needs start time and duration to be 0 or more ms", () => {
    expect(problemsOf({ ...template, startTime: -1 })).toMatch(/startTime: must be a number of ms, 0 or more/u)
    expect(problemsOf({ ...template, duration: Number.POSITIVE_INFINITY })).toMatch(/duration: must be a number of ms/u)
  })

  it("reports every broken rule at once", () => {
    const broken = loose({ widthPercentOfWidth: 200, marginPercentOfHeight: 1, marginPercentOfWidth: 1, startTime: -5 })
    expect(checkOverlay(broken)).toHaveLength(4)
  })
})
