/**
 * Each card's timeline: an <img> of /places/<key>/timeline.svg, kept across redraws and
 * re-requested only when status.json says that place's timeline changed.
 */
import { el } from "./page-parts.ts"
import type { PlaceStatus, Snapshot } from "./snapshot-types.ts"

const timelines: Record<string, { readonly img: HTMLImageElement; url: string }> = {}

export const timelineFigure = (p: PlaceStatus): HTMLElement => {
  let t = timelines[p.key]
  if (!t) {
    t = { img: el("img"), url: "" }
    t.img.alt = "Timeline of " + (p.name || p.key)
    t.img.setAttribute("data-timeline", p.key)
    timelines[p.key] = t
  }
  // An <img> follows no link inside it: the picture opens the SVG itself, whose clip-ready marks open their clips.
  const fig = el("figure", "timeline")
  const open = el("a")
  open.setAttribute("href", "places/" + encodeURIComponent(p.key) + "/timeline.svg")
  open.target = "_blank"
  open.title = "Open the timeline: each clip-ready mark opens its clip"
  open.appendChild(t.img)
  fig.appendChild(open)
  return fig
}

/** Laid out for the width it is shown at (in steps, so a resize does not refetch at every pixel): text stays readable on a phone. */
export const showTimelines = (versions: Snapshot["timelines"] | undefined): void => {
  Object.keys(timelines).forEach((key) => {
    const t = timelines[key]!
    const fig = t.img.parentNode && t.img.parentNode.parentNode
    if (!(fig instanceof HTMLElement) || !fig.isConnected) return
    const width = Math.max(320, Math.ceil(fig.clientWidth / 40) * 40)
    const url = "places/" + encodeURIComponent(key) + "/timeline.svg?width=" + width + "&v=" + encodeURIComponent((versions && versions[key]) || "")
    if (url !== t.url) {
      t.url = url
      t.img.setAttribute("src", url)
    }
  })
}
