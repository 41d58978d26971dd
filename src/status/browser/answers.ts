/** What the service answered for an entry or a click, and a click's clip, as pills. */
import { el } from "./page-parts.ts"
import type { Answer, Click } from "./snapshot-types.ts"

const clipClass: Record<string, string> = { "clip-ready": "ok", "no-clip": "bad", deleted: "neutral", unchecked: "warn" }
const answerClass: Record<string, string> = { delivered: "ok", queued: "blue", retrying: "warn", warning: "warn", dead: "bad", missed: "bad" }

export const answer = (a: Answer): HTMLSpanElement => {
  const s = el("span")
  if (!a) return s
  s.appendChild(el("span", "pill " + (answerClass[a.state] || "neutral"), a.state.toUpperCase()))
  if (a.detail && a.state !== "delivered") s.appendChild(el("span", "small", " " + a.detail))
  return s
}

/** A click's clip as the Clip line shows it: its outcome as a pill. */
export const clipBadge = (k: Pick<Click, "outcome">): HTMLSpanElement =>
  el("span", "pill " + ((k.outcome && clipClass[k.outcome]) || "blue"), (k.outcome || "waiting").replace("-", " ").toUpperCase())

/** The clip's link once ready (http(s) only). */
export const clipLink = (k: Pick<Click, "videoURL">): HTMLAnchorElement | null => {
  if (!k.videoURL || !/^https?:[/][/]/i.test(k.videoURL)) return null
  const a = el("a", null, "open clip")
  a.setAttribute("href", k.videoURL)
  a.setAttribute("target", "_blank")
  a.setAttribute("rel", "noopener noreferrer")
  return a
}
