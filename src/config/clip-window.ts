import { Schema } from "effect"

// While an event is open the service keeps only the last minute of footage.
export const WindowSeconds = (description: string) =>
  Schema.Finite.check(Schema.makeFilter((seconds: number) => {
    if (seconds < 0) return "must be 0 or more seconds"
    if (seconds > 60) return "must be at most 60: while an event is open the service keeps only the last minute of footage"
    return undefined
  }, { toJsonSchema: () => ({ minimum: 0, maximum: 60 }) })).annotate({ description })

/**
 * beforeSeconds and afterSeconds come as a pair: half a window would silently mix a
 * configured side with a default one. `otherwise` names what neither means here.
 */
export const bothOrNeither = (otherwise: string) =>
  Schema.makeFilter<{ readonly beforeSeconds?: number; readonly afterSeconds?: number }>((window) => {
    if ((window.beforeSeconds === undefined) !== (window.afterSeconds === undefined)) {
      return {
        path: [window.beforeSeconds === undefined ? "afterSeconds" : "beforeSeconds"],
        issue: `give beforeSeconds and afterSeconds together, or neither for ${otherwise}`
      }
    }
    return window.beforeSeconds === 0 && window.afterSeconds === 0 ? "beforeSeconds and afterSeconds are both 0: the clip would be empty" : undefined
  }, { toJsonSchema: () => ({ dependentRequired: { beforeSeconds: ["afterSeconds"], afterSeconds: ["beforeSeconds"] } }) })
