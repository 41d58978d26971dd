import type { Config } from "../config/schema.ts"
import { defaultFollowUpSettings, type FollowUpSettings } from "../delivery/follow-up.ts"

/** The follower's settings from the `clips:` config section. */
export const followUpSettings = (clips: Config["clips"]): FollowUpSettings => ({
  ...defaultFollowUpSettings,
  firstReadAfterMs: clips.firstReadSeconds * 1000,
  noClipAfterMs: clips.noClipAfterSeconds * 1000
})
