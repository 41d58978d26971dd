import { Result, Schema } from "effect"
import type { Decoder } from "../../adapters/decoder.ts"
import { protocolNames, protocols } from "../../adapters/registry.ts"
import { formatPath, issueProblems } from "../config/problems.ts"
import { defaultSettleMs, maxSettleMs } from "../config/settle-window.ts"

/** What `replay` was asked to decode with; everything optional so each omission gets its own plain message. */
export interface DecoderRequest {
  readonly protocol: string | undefined
  readonly sport: string | undefined
  /** The protocol's `options` block as JSON text, as in a place's scoreboard config. */
  readonly options: string | undefined
  readonly maxFrameBytes: number | undefined
  /** As a place's `scoreboard.settleMs`; absent: the protocol's default at its documented line speed. */
  readonly settleMs?: number | undefined
}

// As the config loader decodes `options`: a misspelt key is an error, not silently ignored.
const strict = { errors: "all", onExcessProperty: "error" } as const

const decodeJson = Schema.decodeUnknownResult(Schema.fromJsonString(Schema.Unknown))

/**
 * The decoder the daemon would build for this protocol, sport and options
 * (with the sport it was built for and the settle window the daemon would use),
 * or one line saying what is wrong. Sport is always required: it picks the
 * fields a protocol reads and the shape of the score entries.
 */
export const replayDecoder = (
  request: DecoderRequest
): Result.Result<{ readonly decoder: Decoder; readonly sport: string; readonly settleMs: number }, string> => {
  const known = protocolNames.join(", ")
  if (request.protocol === undefined) return Result.fail(`--protocol is required (known protocols: ${known})`)
  const protocol = protocols[request.protocol]
  if (protocol === undefined) return Result.fail(`unknown protocol "${request.protocol}" (known protocols: ${known})`)
  const sports = protocol.sports.join(", ")
  if (request.sport === undefined) {
    return Result.fail(`--sport is required: it decides which fields ${protocol.name} reads and what a score entry is (${protocol.name} knows: ${sports})`)
  }
  if (!protocol.sports.includes(request.sport)) {
    return Result.fail(`protocol ${protocol.name} has no field layout for sport "${request.sport}" (it knows: ${sports})`)
  }
  const json = request.options === undefined ? Result.succeed({}) : decodeJson(request.options)
  if (Result.isFailure(json)) return Result.fail(`--options is not valid JSON: ${JSON.stringify(request.options?.slice(0, 60))}`)
  const options = Schema.decodeUnknownResult(protocol.optionsSchema)(json.success, strict)
  if (Result.isFailure(options)) {
    const problems = issueProblems(options.failure.issue, ["options"]).map((p) => `${formatPath(p.path)}: ${p.message}`)
    return Result.fail(`--options rejected by ${protocol.name}: ${problems.join("; ")}`)
  }
  const decoder = protocol.makeDecoder({
    ...options.success,
    sport: request.sport,
    ...(request.maxFrameBytes === undefined ? {} : { maxFrameBytes: request.maxFrameBytes })
  })
  if (request.settleMs !== undefined && !(Number.isInteger(request.settleMs) && request.settleMs >= 0 && request.settleMs <= maxSettleMs)) {
    return Result.fail(`--settle-ms must be a whole number of ms from 0 to ${maxSettleMs}, got ${request.settleMs}`)
  }
  return Result.succeed({ decoder, sport: request.sport, settleMs: request.settleMs ?? defaultSettleMs(protocol) })
}
