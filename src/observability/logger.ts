import { Cause, Layer, Logger, References } from "effect"
import pino from "pino"

export type LogLevelName = "trace" | "debug" | "info" | "warn" | "error"

const pinoLevel: Readonly<Record<string, string>> = {
  Trace: "trace", Debug: "debug", Info: "info", Warning: "warn", Error: "error", Fatal: "fatal"
}
const effectLevel: Readonly<Record<LogLevelName, "Trace" | "Debug" | "Info" | "Warn" | "Error">> = {
  trace: "Trace", debug: "Debug", info: "Info", warn: "Warn", error: "Error"
}

/**
 * Effect's log calls written as pino JSON lines (journald keeps them; `jq`
 * reads them). The token never reaches a log call; pino's redaction of
 * credential-like keys is a second line of defence for structured fields.
 */
export const pinoLoggerLayer = (level: LogLevelName, destination: pino.DestinationStream = pino.destination({ sync: true })) => {
  const log = pino({
    level,
    base: undefined,
    redact: { paths: ["token", "*.token", "authorization", "*.authorization", "password", "*.password"], censor: "[redacted]" }
  }, destination)
  const logger = Logger.make(({ message, logLevel, cause, fiber }) => {
    const method = pinoLevel[logLevel] ?? "info"
    const annotations = fiber.getRef(References.CurrentLogAnnotations)
    const parts = Array.isArray(message) ? message : [message]
    const text = parts.map((p) => typeof p === "string" ? p : JSON.stringify(p)).join(" ")
    const fields: Record<string, unknown> = { ...annotations }
    if (cause.reasons.length > 0) fields.cause = Cause.pretty(cause)
    ;(log as unknown as Record<string, (o: object, m: string) => void>)[method]!.call(log, fields, text)
  })
  return Layer.mergeAll(
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, effectLevel[level])
  )
}
