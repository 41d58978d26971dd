import type { ClipDetail, ClipOutcome, FollowUp, FollowUpSettings } from "../domain/follow-up.ts"
import type { Moment } from "../service/schemas.ts"

/**
 * When to read a moment, and what a read means. Pure: the follower and its virtual-time tests
 * share it. Reads are spaced by tripling from the first one (10, 30, 90 s after the click was
 * accepted, then the deadline): a clip that is ready on time costs one request, one that never
 * comes four. Every read a follow-up makes is a slot a press just after it waits for.
 */

/** Never two reads of one moment closer than this, however late the previous one was. */
const minimumGapMs = 1_000
/** A failed read is tried again at most this late. */
const failedReadCapMs = 60_000

export const deadlineOf = (followUp: Pick<FollowUp, "acceptedAt">, settings: FollowUpSettings): number =>
  followUp.acceptedAt + settings.noClipAfterMs

/** After a read that found no clip yet, before the deadline: the next planned read, `reads` counting this one. */
export const nextReadAfterNoClip = (followUp: Pick<FollowUp, "acceptedAt">, reads: number, now: number, settings: FollowUpSettings): number => {
  const deadline = deadlineOf(followUp, settings)
  const planned = followUp.acceptedAt + settings.firstReadAfterMs * 3 ** Math.min(reads, 20)
  return Math.min(Math.max(planned, now + minimumGapMs), Math.max(deadline, now + minimumGapMs))
}

/** After a read that failed (network, 5xx, 429): tried again later, backing off. */
export const nextReadAfterFailure = (reads: number, now: number, settings: FollowUpSettings): number =>
  now + Math.min(settings.firstReadAfterMs * 2 ** Math.min(reads, 20), failedReadCapMs)

/** A follow-up that could not be read long after its deadline is not read any more. */
export const givenUp = (followUp: Pick<FollowUp, "acceptedAt">, now: number, settings: FollowUpSettings): boolean =>
  now > deadlineOf(followUp, settings) + settings.giveUpAfterMs

export type ReadVerdict =
  | { readonly _tag: "Settled"; readonly outcome: ClipOutcome; readonly detail: ClipDetail }
  | { readonly _tag: "ReadAgain"; readonly at: number }

const statusOf = (moment: Moment): { momentStatus?: string } =>
  moment.momentStatus === undefined ? {} : { momentStatus: moment.momentStatus }

/** What one successful read of the moment says. */
export const judgeMoment = (
  followUp: Pick<FollowUp, "acceptedAt" | "reads">,
  moment: Moment,
  now: number,
  settings: FollowUpSettings
): ReadVerdict => {
  const ready = (moment.videoClips ?? []).filter((clip) => clip.videoURL !== undefined && clip.videoURL.length > 0)
  const first = ready.toSorted((a, b) => (a.rank ?? 0) - (b.rank ?? 0))[0]
  if (first !== undefined) {
    return {
      _tag: "Settled",
      outcome: "clip-ready",
      detail: {
        angles: ready.length,
        videoURL: first.videoURL!,
        ...(first.thumbnailURL === undefined ? {} : { thumbnailURL: first.thumbnailURL }),
        ...statusOf(moment),
        readyAt: now
      }
    }
  }
  if (now >= deadlineOf(followUp, settings)) {
    const seconds = Math.round(settings.noClipAfterMs / 1000)
    return {
      _tag: "Settled",
      outcome: "no-clip",
      detail: { ...statusOf(moment), reason: `no clip ${seconds} s after the click was accepted: is the camera recording?` }
    }
  }
  return { _tag: "ReadAgain", at: nextReadAfterNoClip(followUp, followUp.reads + 1, now, settings) }
}
