import { Effect } from "effect"
import type { ProtocolDefinition } from "../../../adapters/decoder.ts"
import { protocolNames, protocols } from "../../../adapters/registry.ts"
import { ok, type SetupRoute } from "../setup-route.ts"

type StreamLink = "serial" | "tcp" | "udp"

const streamLinks: ReadonlyArray<StreamLink> = ["serial", "tcp", "udp"]

/** The links the listening step opens, the one the console's own example uses first (Bodet: TCP). */
const linksOf = (definition: ProtocolDefinition<unknown>): ReadonlyArray<StreamLink> => {
  const first = streamLinks.find((link) => new RegExp(`^${link}:`, "mu").test(definition.example))
  return first === undefined ? streamLinks : [first, ...streamLinks.filter((link) => link !== first)]
}

/** One console as the page lists it, from its own definition (adapters/<console>/index.ts). */
export const consoleEntry = (definition: ProtocolDefinition<unknown>) => ({
  protocol: definition.name,
  maker: definition.maker,
  model: definition.model,
  summary: definition.summary,
  description: definition.description,
  wiring: definition.wiring,
  links: linksOf(definition),
  serial: definition.serialDefaults,
  sports: definition.sports,
  learnable: definition.learn !== undefined,
  example: definition.example
})

/** `GET /api/consoles`'s answer. */
export interface ConsolesAnswer { readonly consoles: ReadonlyArray<ReturnType<typeof consoleEntry>> }

export const consolesRoute: SetupRoute = {
  method: "GET",
  path: "/api/consoles",
  handle: () => Effect.succeed(ok({ consoles: protocolNames.map((name) => consoleEntry(protocols[name]!)) } satisfies ConsolesAnswer))
}
