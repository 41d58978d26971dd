import { Schema } from "effect"

/**
 * Names people type (a place's display name, its key, a button id, an action's source) end up on
 * the status page, in logs and on the technician's terminal (`scorebridge check`): a control
 * character there is a terminal escape, a line break a forged log line. So a name is 1–64
 * characters, none of them a control character (Unicode Cc: C0, DEL, C1).
 */
export const maxNameLength = 64

const controlCharacter = /\p{Cc}/u

/** What is wrong with `text` as a name, in words, or undefined. */
export const nameProblem = (text: string, maximum = maxNameLength): string | undefined => {
  const length = [...text].length
  if (length === 0) return "must not be empty"
  if (length > maximum) return `is ${length} characters long: give at most ${maximum}`
  return controlCharacterProblem(text)
}

/** Why `text` may not go on a terminal, a log line or a video as it is (a control character in it), or undefined. */
export const controlCharacterProblem = (text: string): string | undefined =>
  controlCharacter.test(text)
    ? "contains a control character (a terminal escape such as ESC, a tab or a line break): write it with printable characters only"
    : undefined

const jsonPattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]+$"

/**
 * The filter of a name: bounded, no control characters. `ownPattern`: the field has a pattern of
 * its own that already excludes them in the JSON Schema (two patterns would split it into allOf).
 */
export const isName = (maximum = maxNameLength, ownPattern = false) =>
  Schema.makeFilter((text: string) => nameProblem(text, maximum), {
    toJsonSchema: () => ({ minLength: 1, maxLength: maximum, ...(ownPattern ? {} : { pattern: jsonPattern }) })
  })

/** A free-text name (display names): 1–64 printable characters. */
export const Name = Schema.String.check(isName())
