import type { Config } from "../config/schema.ts"
import { defaultFollowUpSettings, type FollowUpSettings } from "../domain/follow-up.ts"

/** The follower's settings from the `clips:` config section. */
export const followUpSettings = (clips: Config["clips"], requestsPerSecond: number): FollowUpSettings => ({
  ...defaultFollowUpSettings,
  // Two of the token's slots.
  readGapMs: Math.ceil(2_000 / requestsPerSecond),
  firstReadAfterMs: clips.firstReadSeconds * 1000,
  noClipAfterMs: clips.noClipAfterSeconds * 1000
})
