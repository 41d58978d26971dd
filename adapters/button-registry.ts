import type { ButtonSourceDefinition } from "./button-source.ts"
import { gpiomon } from "./gpiomon/index.ts"
import { inputEvent } from "./input-event/index.ts"
import { serialButtons } from "./serial-buttons/index.ts"
import { shelly } from "./shelly/index.ts"
import { zigbee2mqtt } from "./zigbee2mqtt/index.ts"

/**
 * Every courtside button source the bridge reads, by the type the config gives it. Adding one:
 * its folder (with its definition), one line here, its docs; the config's type list and each
 * type's link come from here.
 */
const registry = {
  zigbee2mqtt,
  shelly,
  "serial-buttons": serialButtons,
  "input-event": inputEvent,
  gpiomon
} as const satisfies Readonly<Record<string, ButtonSourceDefinition<any>>>

export type ButtonSourceType = keyof typeof registry

export const buttonSources: Readonly<Record<string, ButtonSourceDefinition<any>>> = registry

/** In the registry's order; never empty. */
export const buttonSourceNames = Object.keys(registry) as [ButtonSourceType, ...Array<ButtonSourceType>]
