import { Metric } from "effect"
import { slowDiskThresholdMs } from "../delivery/slow-disk.ts"
import { loopDelayResolutionMs, loopDelayWindowMs } from "../observability/loop-delay.ts"

/** Every series the bridge exposes on /metrics, with its help text (status-metrics.ts fills them). */

const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })
const gauge = (name: string, description: string) => Metric.gauge(name, { description })

export const frames = counter("scorebridge_frames_total", "Scoreboard frames (lines, payloads) that decoded")
export const badFrames = counter("scorebridge_bad_frames_total", "Scoreboard frames rejected: bad checksum, malformed, out of range")
export const overlong = counter("scorebridge_overlong_frames_total", "Scoreboard frames discarded for exceeding the maximum length")
export const skippedBytes = counter("scorebridge_skipped_bytes_total", "Bytes skipped while resynchronising on the scoreboard stream")
export const entriesQueued = counter("scorebridge_entries_queued_total", "Score changes stored in the outbox")
export const settled = counter("scorebridge_items_settled_total", "Outbox items settled, by kind (score, click, undo) and outcome (delivered, warning, dead, missed)")
export const retries = counter("scorebridge_delivery_retries_total", "Attempts to be retried, by reason (transient, rate_limited = 429, unauthorized = 401)")
export const requests = counter("scorebridge_requests_total", "Delivery requests answered or failed (one per attempt)")
export const presses = counter("scorebridge_presses_total", "Button gestures mapped to a place, by result (queued, undo_queued, no_event, nothing_to_undo, not_stored, repeat: a device re-publishing a press already handled)")
export const linkConnects = counter("scorebridge_link_connects_total", "Times a link came up; more than one means reconnects")
export const linkDrops = counter("scorebridge_link_drops_total", "Times a link went down")
export const clips = counter("scorebridge_clips_total", "Followed clicks whose outcome is known, by outcome: clip_ready (a clip has a video), no_clip (none by the deadline: camera off?), deleted (undone or deleted at the service), unchecked (could not be read, given up)")
export const finishes = counter("scorebridge_finishes_total", "Swimmers' finishes the race tracker settled (lane, place and time read from a timing console), whether or not a rule made a click of them")
export const fsyncs = counter("scorebridge_outbox_fsyncs_total", "fsyncs of the outbox's log that ended (failed ones too)")
export const fsyncSeconds = counter("scorebridge_outbox_fsync_seconds_total", "Time spent in fsyncs of the outbox's log: divided by scorebridge_outbox_fsyncs_total, the mean fsync")
export const slowFsyncs = counter("scorebridge_outbox_slow_fsyncs_total", `fsyncs of the outbox's log slower than ${slowDiskThresholdMs} ms: a worn SD card or eMMC`)
export const slowCommits = counter("scorebridge_outbox_slow_commits_total", `Outbox commits held on the event loop longer than ${slowDiskThresholdMs} ms: another program holds the file's lock, or the disk is very slow`)
export const pressToClip = Metric.histogram("scorebridge_press_to_clip_seconds", {
  description: "From the press (or auto-highlight) to the read that found its clip ready; reads are spaced, so an upper bound",
  boundaries: [3, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300]
})
export const latency = Metric.histogram("scorebridge_delivery_latency_seconds", {
  description: "From capture (frame received, button pressed) to the service accepting the item",
  boundaries: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800]
})

export const live = gauge("scorebridge_place_live", "1 when the place is live (scoreboard data flowing and delivery not stuck)")
export const eventRunning = gauge("scorebridge_event_running", "1 when the bridge knows an event is running on the place, 0 when none or not known")
export const info = gauge("scorebridge_bridge_info", "Always 1 while the bridge answers, labelled with its version (and venue): a venue whose series vanish is not reporting")
export const linkUp = gauge("scorebridge_link_up", "1 when the link is connected")
export const pending = gauge("scorebridge_outbox_pending", "Items waiting in the outbox")
export const pastEntries = gauge("scorebridge_outbox_past_event_entries", "Score entries of past events waiting (an outage's backlog, sent after everything live)")
export const pastThrough = gauge("scorebridge_outbox_past_event_seconds_left", "Seconds until the past events' entries are through at the last minute's pace; absent while none is being sent")
export const sentLastMinute = gauge("scorebridge_requests_last_minute", "Requests sent in the last 60 s on the token")
export const limitPerMinute = gauge("scorebridge_request_limit_per_minute", "The token's request limit, per minute")
export const suspended = gauge("scorebridge_token_suspended", "1 while delivery is paused because the service rejected the token (401)")
export const backoff = gauge("scorebridge_backoff_seconds", "Remaining 429 back-off of the token")
export const clockSkew = gauge("scorebridge_clock_skew_seconds", "Service clock minus this machine's, from the last answer's Date header (about ±1 s); absent until the service answered")
export const startTime = gauge("scorebridge_start_time_seconds", "When the bridge started or was last reloaded, Unix seconds: a change is a restart")
export const rollbackInfo = gauge(
  "scorebridge_rollback_info",
  "1 while the upgrade guard's record of an automatic rollback is on the mini-PC: the upgrade it undid (from the kept version, to the one that failed) and why (reason_kind: never_ready, down, restart_loop, not_delivering); absent without a record"
)
export const rolledBackAt = gauge("scorebridge_rolled_back_at_seconds", "When the upgrade guard rolled the bridge back to the kept version, Unix seconds; absent without a record")
export const loopDelay = gauge(
  "scorebridge_event_loop_delay_seconds",
  `How late the event loop ran a timer that was due (sampled every ${loopDelayResolutionMs} ms), by quantile (0.5, 0.99, 1 = the max) over the last whole ${loopDelayWindowMs / 1000} s window (it turns every ${loopDelayWindowMs / 1000} s; before the first ends, since the start): scoreboard frames and presses are stamped that late`
)
export const withoutClip = gauge("scorebridge_clicks_without_clip", "Clicks in a row that made no clip, once there are clips.problemAfterClicks of them (the court's problem line); 0 when fine")
