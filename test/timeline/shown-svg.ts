import type { Page } from "playwright-core"

/** A laid-out box, in CSS pixels of the page. */
export interface Box {
  readonly left: number
  readonly right: number
  readonly top: number
  readonly bottom: number
  readonly cx: number
  readonly cy: number
}

export interface ShownMark {
  readonly kind: string
  readonly state: string
  readonly rule: string | null
  readonly team: string
  readonly at: number
  readonly item: number
  readonly shape: Box
  /** The link around the mark (a ready clip), and its target. */
  readonly link: { readonly href: string; readonly target: string | null } | null
  /** Its tooltip. */
  readonly title: string
}

/** What the browser laid out for the first SVG in the page: the tests check this, not the source. */
export interface ShownSvg {
  readonly svg: Box
  readonly marks: ReadonlyArray<ShownMark>
  readonly ticks: ReadonlyArray<{ readonly at: number; readonly x: number; readonly label: Box | null }>
  readonly boundaries: ReadonlyArray<{ readonly period: number; readonly x: number }>
  readonly periods: ReadonlyArray<{ readonly period: number; readonly label: string; readonly band: Box; readonly shownLabel: { readonly text: string; readonly box: Box } | null }>
  readonly tieBreaks: ReadonlyArray<{ readonly set: number; readonly band: Box; readonly label: { readonly text: string; readonly box: Box } }>
  readonly legend: ReadonlyArray<{ readonly key: string; readonly text: string; readonly box: Box }>
  readonly texts: ReadonlyArray<{ readonly text: string; readonly box: Box }>
  readonly rug: ReadonlyArray<{ readonly state: string; readonly at: number; readonly x: number }>
  readonly teamRows: ReadonlyArray<{ readonly team: string; readonly name: Box; readonly score: Box }>
  /** Score grid lines: the value and the y it is drawn at. */
  readonly yGrid: ReadonlyArray<{ readonly value: number; readonly y: number }>
  readonly lines: ReadonlyArray<{ readonly team: string; readonly set: number; readonly box: Box }>
  /** A pool's chart: each place's row (its line's y), the lane labels beside the finishes, the races' names. */
  readonly placeRows: ReadonlyArray<{ readonly place: number; readonly y: number; readonly label: Box }>
  readonly finishLabels: ReadonlyArray<{ readonly item: number; readonly text: string; readonly box: Box }>
  readonly raceLabels: ReadonlyArray<{ readonly text: string; readonly box: Box }>
}

// Runs in the page (the project's TypeScript has no DOM types): plain JavaScript.
const inspect = `(() => {
  const svg = document.querySelector("svg")
  const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, cx: (r.left + r.right) / 2, cy: (r.top + r.bottom) / 2 } }
  const all = (selector) => [...svg.querySelectorAll(selector)]
  const labelled = (e) => e === null ? null : { text: e.textContent, box: box(e) }
  return {
    svg: box(svg),
    marks: all("[data-mark]").map((g) => ({ kind: g.dataset.kind, state: g.dataset.state, rule: g.dataset.rule ?? null, team: g.dataset.team,
      at: Number(g.dataset.at), item: Number(g.dataset.item), shape: box(g.querySelector("circle, path")),
      link: g.closest("a") === null ? null : { href: g.closest("a").getAttribute("href"), target: g.closest("a").getAttribute("target") },
      title: g.querySelector("title").textContent })),
    ticks: all("[data-tick]").map((g) => ({ at: Number(g.dataset.at), x: box(g.querySelector("line")).cx, label: g.querySelector("text") === null ? null : box(g.querySelector("text")) })),
    boundaries: all("[data-boundary]").map((l) => ({ period: Number(l.dataset.boundary), x: box(l).cx })),
    periods: all("rect[data-period]").map((r) => ({ period: Number(r.dataset.period), label: r.dataset.label, band: box(r),
      shownLabel: labelled(svg.querySelector('[data-period-label="' + r.dataset.period + '"]')) })),
    tieBreaks: all("[data-tiebreak]").map((g) => ({ set: Number(g.dataset.set), band: box(g.querySelector("rect")), label: labelled(g.querySelector("text")) })),
    legend: all("[data-legend-item]").map((g) => ({ key: g.dataset.legendItem, text: g.textContent, box: box(g) })),
    texts: all("text").filter((t) => t.textContent !== "").map((t) => ({ text: t.textContent, box: box(t) })),
    rug: all("[data-score-state]").map((r) => ({ state: r.dataset.scoreState, at: Number(r.dataset.at), x: box(r).cx })),
    yGrid: all("[data-y-grid]").map((l) => ({ value: Number(l.dataset.yGrid), y: box(l).cy })),
    lines: all("path[data-team]").map((p) => ({ team: p.dataset.team, set: Number(p.dataset.set), box: box(p) })),
    placeRows: all("[data-place-row]").map((l) => ({ place: Number(l.dataset.placeRow), y: box(l).cy, label: box(svg.querySelector('[data-place-tick="' + l.dataset.placeRow + '"]')) })),
    finishLabels: all("[data-finish-label]").map((t) => ({ item: Number(t.dataset.finishLabel), text: t.textContent, box: box(t) })),
    raceLabels: all("[data-race-label]").map(labelled),
    teamRows: all("[data-team-row]").map((g) => ({ team: g.dataset.teamRow, name: box(g.querySelector("[data-team-name]")), score: box(g.querySelector("[data-team-score]")) }))
  }
})()`

export const shownSvg = (page: Page): Promise<ShownSvg> => page.evaluate(inspect) as Promise<ShownSvg>

/**
 * RGB of the pixels at `points` in a PNG screenshot, decoded by the browser itself (a canvas):
 * the colours a person sees, not the ones the source asks for.
 */
export const pixelsAt = (page: Page, png: Buffer, points: ReadonlyArray<{ readonly x: number; readonly y: number }>) =>
  page.evaluate(`(async () => {
    const img = new Image()
    img.src = "data:image/png;base64,${png.toString("base64")}"
    await img.decode()
    // The page may be an SVG document: the canvas is asked for in the HTML namespace.
    const canvas = document.createElementNS("http://www.w3.org/1999/xhtml", "canvas")
    canvas.width = img.width
    canvas.height = img.height
    const ctx = canvas.getContext("2d")
    ctx.drawImage(img, 0, 0)
    return ${JSON.stringify(points)}.map((p) => [...ctx.getImageData(Math.floor(p.x), Math.floor(p.y), 1, 1).data].slice(0, 3))
  })()`) as Promise<Array<[number, number, number]>>

export const rgbOf = (hex: string): [number, number, number] =>
  [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]

/** The x a time maps to, read off the drawn time axis (its first and last ticks). */
export const xOnAxis = (shown: ShownSvg, at: number): number => {
  const first = shown.ticks[0]!
  const last = shown.ticks.at(-1)!
  return first.x + ((at - first.at) * (last.x - first.x)) / (last.at - first.at)
}

/** The y a score maps to, read off the drawn grid (its lowest and highest lines). */
export const yOnGrid = (shown: ShownSvg, value: number): number => {
  const low = shown.yGrid[0]!
  const high = shown.yGrid.at(-1)!
  return low.y + ((value - low.value) * (high.y - low.y)) / (high.value - low.value)
}

export const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
