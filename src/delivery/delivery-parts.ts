import type { ActiveEvents } from "../events/active-events.ts"
import type { ServiceClient } from "../service/client.ts"
import type { InDoubtMarks } from "./in-doubt-marks.ts"
import type { OutboxItems } from "./outbox.ts"

/** What the deliveries of each item kind use: the service, the outbox, the live events, the in-doubt marks. */
export interface DeliveryParts {
  readonly client: ServiceClient["Service"]
  readonly outbox: Pick<OutboxItems["Service"], "markSending" | "get">
  readonly events: ActiveEvents["Service"]
  readonly marks: InDoubtMarks
}
