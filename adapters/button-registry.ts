import type { ButtonSourceDefinition } from "./button-source.ts"
import { gpiomon } from "./gpiomon/index.ts"
import { inputEvent } from "./input-event/index.ts"
import { serialButtons } from "./serial-buttons/index.ts"
import { shelly } from "./shelly/index.ts"
import { zigbee2mqtt } from "./zigbee2mqtt/index.ts"

/** Every courtside button source the bridge reads. Adding one: one folder, one line here. */
export const buttonSources: Readonly<Record<string, ButtonSourceDefinition<any>>> = {
  [zigbee2mqtt.name]: zigbee2mqtt,
  [shelly.name]: shelly,
  [serialButtons.name]: serialButtons,
  [inputEvent.name]: inputEvent,
  [gpiomon.name]: gpiomon
}

export const buttonSourceNames = Object.keys(buttonSources)
