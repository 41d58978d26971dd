import { Cause, Layer, Logger, type LogLevel, References } from "effect"
import pino from "pino"

export type LogLevelName = "trace" | "debug" | "info" | "warn" | "error"

// Keyed by Effect's own severity type, so a misspelt level is a compile error rather than a
// warning quietly logged as info (which hid the slow-disk warning from journald filters).
const pinoLevel: Readonly<Record<LogLevel.Severity, pino.Level>> = {
  Trace: "trace", Debug: "debug", Info: "info", Warn: "warn", Error: "error", Fatal: "fatal"
}
const effectLevel: Readonly<Record<LogLevelName, LogLevel.Severity>> = {
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
    const method = logLevel === "All" || logLevel === "None" ? "info" : pinoLevel[logLevel]
    const annotations = fiber.getRef(References.CurrentLogAnnotations)
    const parts = Array.isArray(message) ? message : [message]
    const text = parts.map((p) => typeof p === "string" ? p : JSON.stringify(p)).join(" ")
    const fields: Record<string, unknown> = { ...annotations }
    if (cause.reasons.length > 0) fields.cause = Cause.pretty(cause)
    log[method](fields, text)
  })
  return Layer.mergeAll(
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, effectLevel[level])
  )
}
