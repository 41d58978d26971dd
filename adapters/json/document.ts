/**
 * Reading values out of a parsed JSON document by dot path. Only own
 * properties are followed, so a path like `constructor.name` finds nothing
 * rather than something from the prototype chain.
 */
export type CompiledPath = ReadonlyArray<string>

export const compilePath = (path: string): CompiledPath => path.split(".")

const arrayIndex = /^\d+$/

export const valueAt = (document: unknown, path: CompiledPath): unknown => {
  let value = document
  for (const segment of path) {
    if (Array.isArray(value)) {
      value = arrayIndex.test(segment) ? value[Number(segment)] : undefined
    } else if (typeof value === "object" && value !== null && Object.hasOwn(value, segment)) {
      value = (value as Record<string, unknown>)[segment]
    } else {
      return undefined
    }
  }
  return value
}

/** Parses one JSON document; `undefined` for anything that is not JSON (JSON.parse's SyntaxError, and only that). */
export const parseDocument = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch (error) {
    if (error instanceof SyntaxError) return undefined
    throw error
  }
}
