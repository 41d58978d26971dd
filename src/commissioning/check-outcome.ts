/**
 * One line of `scorebridge doctor`. Plain words rather than ✓/✗: the output is
 * read over serial consoles, SSH from phones and in support tickets, where
 * Unicode marks often arrive as garbage.
 */
export type CheckStatus = "ok" | "fail" | "warn" | "skip"

export interface CheckOutcome {
  readonly status: CheckStatus
  /** What was checked and what was found, e.g. `serial /dev/ttyUSB0: readable and writable`. */
  readonly line: string
  /** What to do about it; given for every failure and warning. */
  readonly advice?: string
}

export const ok = (line: string): CheckOutcome => ({ status: "ok", line })
export const fail = (line: string, advice: string): CheckOutcome => ({ status: "fail", line, advice })
export const warn = (line: string, advice: string): CheckOutcome => ({ status: "warn", line, advice })
export const skip = (line: string): CheckOutcome => ({ status: "skip", line })

const marks: Readonly<Record<CheckStatus, string>> = { ok: "[ OK ]", fail: "[FAIL]", warn: "[WARN]", skip: "[SKIP]" }

export const formatOutcome = (outcome: CheckOutcome): string =>
  outcome.advice === undefined
    ? `${marks[outcome.status]} ${outcome.line}`
    : `${marks[outcome.status]} ${outcome.line}\n       what to do: ${outcome.advice}`

/** Warnings and skipped checks are shown but do not fail the run: only a failure is something that will not work. */
export const allPassed = (outcomes: ReadonlyArray<CheckOutcome>): boolean => outcomes.every((o) => o.status !== "fail")

export const summaryLine = (outcomes: ReadonlyArray<CheckOutcome>): string => {
  const count = (status: CheckStatus) => outcomes.filter((o) => o.status === status).length
  const failed = count("fail")
  const warnings = count("warn")
  const extra = warnings === 0 ? "" : `, ${warnings} warning(s)`
  return failed === 0
    ? `All ${outcomes.length - count("skip")} checks passed${extra}.`
    : `${failed} check(s) failed${extra}: fix the lines marked FAIL and run doctor again.`
}
