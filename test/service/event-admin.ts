import { Effect, Option } from "effect"
import type { ServiceCalls } from "../../src/service/service-calls.ts"
import { eventPath, momentPath, segment } from "../../src/service/service-calls.ts"
import { EventKeyAnswer, LookupAnswer, PartialAnswer, type CreateEvent, type MomentPatch } from "../../src/service/schemas.ts"

/**
 * Calls of the service's endpoints that the bridge never makes (an organiser's: creating,
 * patching, closing and deleting events, look-ups by time, editing moments), for the tests
 * that check the request machinery and the simulator against the API. Sent through the same
 * `ServiceCalls` as the bridge's own.
 */
export const eventAdmin = ({ call, done }: ServiceCalls["Service"]) => ({
  createEvent: (externalID: string, body: CreateEvent) => call({ method: "POST", path: eventPath(externalID), body }, EventKeyAnswer),
  patchEvent: (eventKey: string, body: Partial<CreateEvent>) => done({ method: "PATCH", path: eventPath(eventKey), body }),
  deleteEvent: (eventKey: string) => done({ method: "DELETE", path: eventPath(eventKey) }),
  closeEvent: (eventKey: string) => done({ method: "POST", path: `${eventPath(eventKey)}/close` }),
  deleteEventScore: (eventKey: string, scoreKey: string) =>
    done({ method: "DELETE", path: `${eventPath(eventKey)}/score/${segment(scoreKey)}` }),

  /** The event that started on the place within the hour of `at` (UTC); None when nothing matches. */
  lookupEvent: (placeKey: string, at: Date) => {
    const query = {
      placeKey,
      year: String(at.getUTCFullYear()),
      month: String(at.getUTCMonth() + 1),
      day: String(at.getUTCDate()),
      hour: String(at.getUTCHours())
    }
    // What the service answers when nothing matches is not documented: both an empty answer and 404 mean "none".
    return call({ method: "GET", path: "/public/event-lookup-by-place-and-time", query }, LookupAnswer).pipe(
      Effect.map((a) => Option.fromUndefinedOr(a.eventKey)),
      Effect.catchTag("NotFound", () => Effect.succeedNone)
    )
  },

  patchMoment: (momentKey: string, body: MomentPatch) => call({ method: "PATCH", path: momentPath(momentKey), body }, PartialAnswer),
  deleteClip: (momentKey: string, clipKey: string) =>
    done({ method: "DELETE", path: `${momentPath(momentKey)}/clips/${segment(clipKey)}` })
})
