import { Result } from "effect"
import type { ButtonSourceType } from "../../../adapters/button-registry.ts"
import { buttonSources } from "../../../adapters/button-registry.ts"
import type { ButtonDecoder } from "../../../adapters/button-source.ts"
import type { Gesture } from "../../domain/button.ts"
import { type ButtonEntry, checkEntry } from "./button-entry.ts"

/**
 * A press a capture saw, as the page binds it: the `buttons:` entry that reads its device, and the
 * pieces of the place's `actions` line (source `name`, `button` when the source has several,
 * `gesture`); the page adds the team and what it does.
 */
export interface PressFound {
  readonly type: ButtonSourceType
  readonly name: string
  readonly entry: ButtonEntry
  readonly button?: string
  readonly gesture: Gesture
  /** In words for the page: "zigbee2mqtt device court4-remote, action single". */
  readonly described: string
  /** The config already has this entry (the same device): the page keeps it as it is. */
  readonly known?: boolean
}

/**
 * The source type's own decoder for an entry, its options decoded as the config loader does.
 * Fails with the config's problems when the entry would not load.
 */
export const decoderOf = (entry: ButtonEntry): Result.Result<ButtonDecoder, ReadonlyArray<string>> =>
  Result.map(checkEntry(entry), (button) =>
    buttonSources[button.type]!.makeDecoder({ ...button.options, source: button.name }) as ButtonDecoder)
