import type { Block, LayoutLearning } from "../../adapters/layout-learning.ts"
import type { ReceivedChunk } from "../domain/received.ts"
import { checkBlock, checkLine } from "./layout-check.ts"
import { type Candidate, type Finding, findLayout } from "./layout-finder.ts"
import { framesOf, type LearnableProtocol, learningOf, type Recording } from "./layout-frames.ts"
import { describeNoted, fieldWord, type Observation } from "./layout-observation.ts"

export interface LearnReport {
  readonly lines: ReadonlyArray<string>
  /** 0: every noted field found once; 1: something ambiguous or not found (the report says what). */
  readonly exitCode: 0 | 1
  /** `found`: the options block reads every moment as noted; `ambiguous`: a field could be in more than one place; else `not-found`. */
  readonly outcome: "found" | "ambiguous" | "not-found"
  /** The options block the report prints, as data (the setup page merges it into the place's scoreboard options); only when `found`. */
  readonly options?: Readonly<Record<string, unknown>>
}

/** What did not work out, for a report without options: ambiguous when a field has several candidates. */
const unsettled = (findings: ReadonlyArray<Finding>): LearnReport["outcome"] =>
  findings.some((f) => f._tag === "ambiguous") ? "ambiguous" : "not-found"

export interface ReportContext {
  readonly protocol: LearnableProtocol
  /** A time of the recording in the technician's terms: "14:02:05" live, "12.5 s" from a capture. */
  readonly describeTime: (at: number) => string
  /** Where the recording is, for support: "court1.ndjson", or how to make one. */
  readonly forSupport: string
}

const maxListed = 6

const listed = (learning: LayoutLearning, candidates: ReadonlyArray<Candidate>, conjunction = "or") => {
  const shown = candidates.slice(0, maxListed).map(learning.describeRange)
  const more = candidates.length - shown.length
  return `${shown.slice(0, -1).join(", ")}${shown.length > 1 ? ` ${conjunction} ` : ""}${shown.at(-1)}${more > 0 ? ` (and ${more} more)` : ""}`
}

const foundLines = (context: ReportContext, finding: Extract<Finding, { readonly _tag: "found" }>, noted: ReadonlyArray<Observation>) => {
  const learning = learningOf(context.protocol)
  const word = fieldWord(finding.field)
  const values = [...new Set(noted.map((o) => o.noted[finding.field]))]
  const wide = finding.block.first !== finding.range.first || finding.block.last !== finding.range.last
  const widens = learning.fixedPlaces || !wide
    ? ""
    : `; the options read ${learning.describeRange(finding.block)}, with the blank bytes beside it, for values still to come`
  return [
    `${word}: ${learning.describeRange(finding.range)} (read ${values.join(", ")} as noted${widens}).`,
    ...(finding.alsoIn.length === 0 ? [] : [`  ${listed(learning, finding.alsoIn, "and")} showed the same all through the recording: copies; any of them reads it.`]),
    ...(finding.weak
      ? [`  Only ever noted as ${values[0]}: a byte that showed ${values[0]} by chance would pass too. Note a moment after ${word} changes to be sure.`]
      : []),
    ...finding.uncertain.map((o) =>
      `  It changed within the second before ${o.when}: the board may still have shown the old value when you read it; if this looks wrong, note that moment again.`
    ),
    ...(finding.field === "home" || finding.field === "away"
      ? values.every((v) => v!.length === 1) && !learning.fixedPlaces
        ? [`  Seen with one digit only: note a moment with ${word} at 10 or more to see how the board writes two digits.`]
        : []
      : [])
  ]
}

const ambiguousLines = (context: ReportContext, finding: Extract<Finding, { readonly _tag: "ambiguous" }>) => {
  const learning = learningOf(context.protocol)
  const word = fieldWord(finding.field)
  const { differsAt, sameValue, sharedWith } = finding.settle
  const nested = finding.candidates.every((a) => finding.candidates.every((b) => a.kind === b.kind && a.first <= b.last && b.first <= a.last))
  const advice = sharedWith.length > 0
    ? `note a moment where ${[word, ...sharedWith.map(fieldWord)].join(" and ")} differ`
    : nested && finding.field !== "clock"
    ? `they differ in how many digits they hold: note a moment with ${word} at 10 or more`
    : differsAt === undefined
    ? `they showed the same all through the recording (a copy?): note a moment after ${word} changes, with the recording running longer`
    : sameValue !== undefined
    ? `${word} was ${sameValue} at every moment noted: note a moment after ${word} changes`
    : `note another moment with ${word} at a new value`
  if (finding.candidates.length === 1) {
    return [
      `${word}: not settled: ${[word, ...sharedWith.map(fieldWord)].join(" and ")} only ever read as noted at ${learning.describeRange(finding.candidates[0]!)}, `
        + `and two fields never share bytes: check what you typed, or note a moment where they differ.`
    ]
  }
  const shownBy = differsAt?.shown.slice(0, maxListed).map((shown, i) => `${learning.describeRange(finding.candidates[i]!)} showed ${shown}`)
  const hint = differsAt === undefined
    ? ""
    : ` (at ${context.describeTime(differsAt.at)} ${shownBy!.join(", ")}: what the board showed then would settle it)`
  return [`${word}: ambiguous: ${word} could be ${listed(learning, finding.candidates)}: ${advice}${hint}.`]
}

const notFoundLines = (context: ReportContext, finding: Extract<Finding, { readonly _tag: "not-found" }>) => {
  const word = fieldWord(finding.field)
  const { reason } = finding
  switch (reason._tag) {
    case "no-frames":
      return [`${word}: not found: no frame had arrived by ${reason.observation.when}; note moments while the console sends.`]
    case "nothing-reads":
      return [
        `${word}: not found: no byte range read ${reason.observation.noted[finding.field]} at ${reason.observation.when}; check what you typed and the protocol.`
      ]
    case "one-off":
      return [
        `${word}: not found: every other moment reads it at ${learningOf(context.protocol).describeRange(reason.without)}, but not ${reason.observation.when} `
          + `(${word} ${reason.observation.noted[finding.field]}): check what you typed then.`
      ]
    case "no-common":
      return [`${word}: not found: no single byte range read ${word} as noted at every moment; check what you typed and the protocol.`]
  }
}

/** Notes on the frame types the fields came from: a period in C and the score in H is how Fair-Play sends them. */
const kindNotes = (context: ReportContext, findings: ReadonlyArray<Finding>): ReadonlyArray<string> => {
  const words = learningOf(context.protocol).kindWord
  if (words === undefined) return []
  const found = findings.flatMap((f) => (f._tag === "found" ? [f] : []))
  const kinds = [...new Set(found.map((f) => f.range.kind))]
  if (kinds.length < 2) return []
  const byKind = kinds.map((kind) => `${found.filter((f) => f.range.kind === kind).map((f) => fieldWord(f.field)).join(", ")} in ${kind}`)
  const home = found.find((f) => f.field === "home")
  const away = found.find((f) => f.field === "away")
  return [
    `The fields come from different ${words}s (${byKind.join("; ")}): that is fine, the bridge reads each from its own.`,
    ...(home !== undefined && away !== undefined && home.range.kind !== away.range.kind
      ? [`home and guest come from different ${words}s: unusual; check both against the board once more.`]
      : [])
  ]
}

/** `Frames: 40 frames (C ×20, H ×20).`: per kind when frames come in kinds. */
const countsLine = (learning: LayoutLearning, recording: Recording): string => {
  const total = [...recording.counts.values()].reduce((a, b) => a + b, 0)
  const byKind = learning.kindWord === undefined ? "" : ` (${[...recording.counts].map(([kind, n]) => `${kind} ×${n}`).join(", ")})`
  return `Frames: ${total} ${learning.framesWord}${byKind}.`
}

/** The first choice the adapter reads the recording with as noted; else the first, with what went wrong. */
const chosen = (protocol: LearnableProtocol, block: Extract<Block, { readonly _tag: "block" }>, chunks: ReadonlyArray<ReceivedChunk>, observations: ReadonlyArray<Observation>) => {
  const checked = block.choices.map((choice) => ({ choice, check: checkBlock(protocol, choice.options, choice.sport, chunks, observations) }))
  return checked.find((c) => c.check._tag === "reads") ?? checked[0]!
}

/**
 * The technician's report: per noted field where it is, or what is ambiguous and the reading that
 * settles it, or why it was not found; then the options block once every field is found.
 */
export const learnReport = (
  context: ReportContext,
  chunks: ReadonlyArray<ReceivedChunk>,
  observations: ReadonlyArray<Observation>
): LearnReport => {
  const recording = framesOf(context.protocol, chunks)
  const { protocol } = context
  const learning = learningOf(protocol)
  const header = [
    countsLine(learning, recording),
    `Moments noted: ${observations.length}`,
    ...observations.map((o) => `  ${o.when}: ${describeNoted(o.noted)}`),
    learning.positions,
    ""
  ]
  if (recording.states.length === 0) {
    return {
      lines: [...header, `No ${protocol} frames in the recording: check --protocol (scorebridge sniff names it) and the line speed.`],
      exitCode: 1,
      outcome: "not-found"
    }
  }
  const findings = findLayout(recording.states, observations, learning.scoreGrowth)
  return withFindings(context, chunks, observations, header, findings)
}

/** The report once the finder has looked: each field's lines, then the options block or what is missing for it. */
const withFindings = (
  context: ReportContext,
  chunks: ReadonlyArray<ReceivedChunk>,
  observations: ReadonlyArray<Observation>,
  header: ReadonlyArray<string>,
  findings: ReadonlyArray<Finding>
): LearnReport => {
  const { protocol } = context
  const learning = learningOf(protocol)
  const body = findings.flatMap((finding) => findingLines(context, finding, observations))
  const found = findings.flatMap((f) => (f._tag === "found" ? [f] : []))
  const notes = kindNotes(context, findings)
  if (found.length !== findings.length || findings.length === 0) {
    const count = findings.length - found.length
    return {
      lines: [...header, ...body, ...notes, "", `No options block yet: settle the field${count > 1 ? "s" : ""} above, then run learn again with the new moments.`],
      exitCode: 1,
      outcome: unsettled(findings)
    }
  }
  const letterPeriod = observations.some((o) => o.noted.period !== undefined && !/^\d+$/u.test(o.noted.period))
  const block = learning.optionsBlock(found, letterPeriod)
  if (block._tag === "none") {
    return { lines: [...header, ...body, ...notes, "", ...block.why, `The recording for support: ${context.forSupport}`], exitCode: 1, outcome: "not-found" }
  }
  const { check, choice } = chosen(protocol, block, chunks, observations)
  const reads = check._tag === "reads"
  return {
    lines: [
      ...header,
      ...body,
      ...notes,
      "",
      ...block.notes,
      "Options block to paste (under the place's scoreboard:):",
      ...choice.lines,
      checkLine(check, learning.sportMatters),
      ...(reads ? [] : [`The recording for support: ${context.forSupport}`])
    ],
    exitCode: reads ? 0 : 1,
    ...(reads ? { outcome: "found", options: choice.options } : { outcome: "not-found" })
  }
}

const findingLines = (context: ReportContext, finding: Finding, observations: ReadonlyArray<Observation>): ReadonlyArray<string> => {
  switch (finding._tag) {
    case "found":
      return foundLines(context, finding, observations.filter((o) => o.noted[finding.field] !== undefined))
    case "ambiguous":
      return ambiguousLines(context, finding)
    case "not-found":
      return notFoundLines(context, finding)
  }
}
