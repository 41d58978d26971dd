import type { ClipDetail, ClipOutcome } from "../domain/follow-up.ts"

/** What a followed click shows, in words: the status card, the CLI, the feedback topic and the timeline share it. */
export interface FollowedClick {
  readonly pressedAt: number
  readonly outcome: ClipOutcome | null
  readonly detail: ClipDetail | null
  readonly reads?: number
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`

/** Seconds from the press to the read that found the clip: an upper bound, reads are spaced. */
export const secondsToClip = (click: FollowedClick): number | undefined =>
  click.outcome === "clip-ready" && click.detail?.readyAt !== undefined
    ? Math.max(0, Math.round((click.detail.readyAt - click.pressedAt) / 1000))
    : undefined

export const clipOutcomeText = (click: FollowedClick): string => {
  const detail = click.detail ?? {}
  const status = detail.momentStatus === undefined ? "" : ` (service says "${detail.momentStatus}")`
  switch (click.outcome) {
    case null:
      return `waiting for its clip${click.reads === undefined || click.reads === 0 ? "" : ` (${plural(click.reads, "read")} so far)`}`
    case "clip-ready": {
      const seconds = secondsToClip(click)
      return `clip ready${seconds === undefined ? "" : ` in ${seconds} s`}, ${plural(detail.angles ?? 1, "angle")}`
    }
    case "no-clip":
      return `no clip${status}: ${detail.reason ?? "none came by the deadline"}`
    case "deleted":
      return `deleted: ${detail.reason ?? "the moment is gone"}`
    case "unchecked":
      return `unchecked: ${detail.reason ?? "the moment could not be read"}`
  }
}
