import type { Gesture } from "../../src/domain/button.ts"

export interface ButtonAction {
  readonly button: string
  readonly gesture: Gesture
}

/**
 * Gesture words as zigbee2mqtt's converters spell them, longest first so
 * Hue's `on_press_release` is a finished short press rather than a release,
 * and `long_press` is not read as `long` on a button called "press".
 */
const phrases: ReadonlyArray<readonly [ReadonlyArray<string>, Gesture]> = [
  [["press", "release"], "single"],
  [["hold", "release"], "release"],
  [["long", "release"], "release"],
  [["long", "press"], "hold"],
  [["single"], "single"],
  [["double"], "double"],
  [["triple"], "triple"],
  [["hold"], "hold"],
  [["long"], "hold"],
  [["release"], "release"]
]

const findPhrase = (tokens: ReadonlyArray<string>, phrase: ReadonlyArray<string>): number => {
  for (let start = 0; start + phrase.length <= tokens.length; start++) {
    if (phrase.every((word, i) => tokens[start + i] === word)) return start
  }
  return -1
}

/**
 * `single`, `1_single`, `button_1_hold`, `single_left`, `left_single`,
 * `on_press_release` → button and gesture; the words around the gesture name
 * the button ("1" when there are none). Undefined for actions outside the
 * vocabulary (`brightness_move_up`, `quadruple`, Hue's bare `on_press`).
 */
export const parseAction = (action: string): ButtonAction | undefined => {
  const tokens = action.toLowerCase().split("_").filter((token) => token.length > 0)
  for (const [phrase, gesture] of phrases) {
    const start = findPhrase(tokens, phrase)
    if (start === -1) continue
    const rest = [...tokens.slice(0, start), ...tokens.slice(start + phrase.length)].filter((token) => token !== "button")
    return { button: rest.length > 0 ? rest.join("_") : "1", gesture }
  }
  return undefined
}
