import { Schema } from "effect"
import { ScoreEntry } from "../../delivery/item-payloads.ts"
import { clipOutcomes } from "../../domain/follow-up.ts"
import { ReadingJson } from "./reading-json.ts"

/**
 * One place's card as `/status.json` serves it and the page draws it. Times are ms since epoch.
 * Every field is its own exported Schema so that a reader (the upgrade window, the setup page)
 * picks the fields it needs from these, never a copy: a renamed field breaks its typecheck.
 */

export const BadgeJson = Schema.Literals(["LIVE", "NO DATA", "DISCONNECTED"])

/** The service's answer to one outbox item (src/status/item-answer.ts). */
export const AnswerJson = Schema.Struct({
  state: Schema.Literals(["queued", "delivered", "warning", "dead", "missed", "retrying"]),
  /** Warning, error or miss reason; for a delivery, the service's result. */
  detail: Schema.NullOr(Schema.String),
  at: Schema.Number
})

/** The place's newest followed click (see src/domain/follow-up.ts). */
export const LastClickJson = Schema.Struct({
  /** The click's outbox item. */
  itemId: Schema.Int,
  pressedAt: Schema.Number,
  /** Null while it is being followed. */
  outcome: Schema.NullOr(Schema.Literals(clipOutcomes)),
  /** In words, e.g. "clip ready in 9 s, 2 angles" (clipOutcomeText). */
  text: Schema.String,
  /** The first clip's links, when the outcome is clip-ready. */
  videoURL: Schema.NullOr(Schema.String),
  thumbnailURL: Schema.NullOr(Schema.String)
})

/** The place's newest settled clicks made no clip, `clips.problemAfterClicks` or more in a row. */
export const ClipProblemJson = Schema.Struct({
  /** No-clip clicks since the last clip (deleted and unchecked ones not counted). */
  clicks: Schema.Int,
  /** When the first of them was pressed. */
  since: Schema.Number,
  /** E.g. "3 clicks without a clip since 14:02:31: is the camera recording?" (the venue's clock). */
  text: Schema.String
})

/** A swimmer's finish on the card: lane, place and time, the touch, and what became of its click. */
export const FinishStatusJson = Schema.Struct({
  lane: Schema.Number,
  place: Schema.Number,
  /** As the board showed it: "28.91", "1:02.34". */
  time: Schema.String,
  timeMs: Schema.Number,
  /** The event and heat of its race (the board's at the start); null when the board showed none. */
  event: Schema.NullOr(Schema.Number),
  heat: Schema.NullOr(Schema.Number),
  swimmer: Schema.NullOr(Schema.String),
  /** The touch: the race's start plus the time. */
  at: Schema.Number,
  /** Which race on the card: 0 the newest, 1 the one before. */
  race: Schema.Int,
  /** The click a `finish` rule made of it (its outbox item); null when none was made. */
  clickItemId: Schema.NullOr(Schema.Int),
  /** The service's answer to that click, as the outbox keeps it; null without a click. */
  answer: Schema.NullOr(AnswerJson),
  /** Its clip, once the service accepted the click and clicks are followed; null otherwise. */
  clip: Schema.NullOr(LastClickJson)
})

/** A timing console's race (swimming), from the place's last reading and the race tracker's finishes. */
export const RaceStatusJson = Schema.Struct({
  /** The event and heat the board shows now (the operator may advance them before the next start). */
  event: Schema.NullOr(Schema.Number),
  heat: Schema.NullOr(Schema.Number),
  /** The running clock as shown ("1:02.3"); null while its module is blank. */
  clock: Schema.NullOr(Schema.String),
  /**
   * `waiting`: the clock shows its reset (before the start, or after the race); `running`: it counts; `blank`: not shown;
   * `unread`: no reading of the board since the bridge started (the finishes are the outbox's, from before).
   */
  phase: Schema.Literals(["waiting", "running", "blank", "unread"]),
  /** The console's blank mode: lanes sent blank while the clock runs on. */
  blanked: Schema.Boolean,
  /** The last finishes, at most 8: the newest race first, each race by place, as a results list reads. */
  finishes: Schema.Array(FinishStatusJson)
})

/** A decoder's counts (adapters/decoder.ts DecoderStats). */
export const DecoderStatsJson = Schema.Struct({
  frames: Schema.Int,
  badFrames: Schema.Int,
  overlong: Schema.Int,
  skippedBytes: Schema.Int
})

/** The last score entry stored for the place, and the service's answer to it (src/status/place-tracker.ts). */
export const LastEntryJson = Schema.Struct({ itemId: Schema.Int, entry: ScoreEntry, answer: AnswerJson })

/** A late press's click (src/domain/press-result.ts LateClick): when it can have been made, and the window it got. */
const LateClickJson = Schema.Struct({
  /** When the bridge stopped listening: the press came after it. Null: not known. */
  after: Schema.NullOr(Schema.Number),
  /** When it reached the bridge: the press came before it. */
  arrivedAt: Schema.Number,
  startTime: Schema.Number,
  endTime: Schema.Number
})

/** The place's last press, and what the operator was told (src/status/place-tracker.ts). */
export const LastPressJson = Schema.Struct({
  at: Schema.Number,
  source: Schema.String,
  button: Schema.String,
  gesture: Schema.String,
  /** What the operator was told, e.g. "… → highlight #12 on its way". */
  text: Schema.String,
  itemId: Schema.NullOr(Schema.Int),
  answer: Schema.NullOr(AnswerJson),
  /** Set when the press waited at the broker while the bridge was not listening, and its window was widened. */
  late: Schema.NullOr(LateClickJson)
})

/** An error line; the same problem again bumps `times` instead of filling the ring. */
export const ErrorNoteJson = Schema.Struct({ at: Schema.Number, text: Schema.String, key: Schema.String, times: Schema.Int })

/** The place's input: its scoreboard's link (or "buttons only"), where it reads, and its light. */
export const PlaceSourceJson = Schema.Struct({
  link: Schema.Literals(["serial", "mqtt", "tcp", "udp", "buttons only"]),
  target: Schema.String,
  badge: BadgeJson,
  /** One line for a technician: what is wrong and where to look. */
  detail: Schema.String
})

/** Of the pending scores, those of past events (an outage's backlog, sent after everything live) and when they will be through. */
export const PastBacklogJson = Schema.Struct({
  entries: Schema.Int,
  events: Schema.Int,
  /** When the last of them should be through at the current pace (ms); null while none drains. */
  throughAt: Schema.NullOr(Schema.Number)
})

/** What waits in the outbox for the place. */
export const PlaceQueueJson = Schema.Struct({
  score: Schema.Int,
  click: Schema.Int,
  undo: Schema.Int,
  /** Capture time of the oldest pending item. */
  oldestPendingAt: Schema.NullOr(Schema.Number),
  oldestPendingError: Schema.NullOr(Schema.String),
  pastEvents: PastBacklogJson
})

/** The place's event as the service's answers told it; a null key: the service said none is running. */
export const PlaceEventJson = Schema.Struct({
  key: Schema.NullOr(Schema.String),
  homeTeam: Schema.NullOr(Schema.String),
  awayTeam: Schema.NullOr(Schema.String),
  learnedAt: Schema.Number
})

export const PlaceStatusJson = Schema.Struct({
  key: Schema.String,
  name: Schema.NullOr(Schema.String),
  sport: Schema.NullOr(Schema.String),
  /** False when a health reason names this place. */
  live: Schema.Boolean,
  reasons: Schema.Array(Schema.String),
  source: PlaceSourceJson,
  lastBytesAt: Schema.NullOr(Schema.Number),
  lastReadingAt: Schema.NullOr(Schema.Number),
  lastReading: Schema.NullOr(ReadingJson),
  /** The last reading in words, e.g. "25–23 · set 3", or "Event 12 · Heat 3 · 1:02.3" for a race. */
  lastReadingText: Schema.NullOr(Schema.String),
  /** Null unless the last reading carries a race (a timing console), or, before the first reading, finishes were made before a restart. */
  race: Schema.NullOr(RaceStatusJson),
  decoder: DecoderStatsJson,
  lastEntry: Schema.NullOr(LastEntryJson),
  lastPress: Schema.NullOr(LastPressJson),
  /** Null when clicks are not followed (`clips.followUp: false`) or none was yet. */
  lastClick: Schema.NullOr(LastClickJson),
  /** Null when fine or clicks are not followed; its text is also a health reason. */
  clipProblem: Schema.NullOr(ClipProblemJson),
  queue: PlaceQueueJson,
  /** Null: not learned yet. */
  event: Schema.NullOr(PlaceEventJson),
  buttons: Schema.Array(Schema.Struct({ source: Schema.String, badge: BadgeJson, detail: Schema.String })),
  errors: Schema.Array(ErrorNoteJson)
})
