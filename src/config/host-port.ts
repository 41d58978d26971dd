import { Schema } from "effect"
import { hostPortPattern, hostPortProblem } from "../domain/host-port.ts"

/** A "host:port" string; `example` is quoted in the error a wrong one gets. */
export const hostPort = (example: string) =>
  Schema.String.check(
    Schema.makeFilter((text: string) => hostPortProblem(text, example), { toJsonSchema: () => ({ pattern: hostPortPattern }) })
  )
