import { Console, Effect } from "effect"

// Every Unicode control character (C0, DEL, C1) but the line feeds and tabs the CLI lays out its own lines with.
const foreignControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu

const escaped = (character: string): string => {
  const code = character.codePointAt(0)!
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`
}

/**
 * Text the CLI did not write (a config's names and values, a device's bytes, an error quoting
 * them) made safe for a terminal: a control character is printed as `\x1b`, so it cannot move
 * the cursor, rewrite the screen or set the window title. Line feeds and tabs stay.
 */
export const printable = (text: string): string => text.replace(foreignControl, escaped)

/** `Console.log` of text that may hold untrusted parts. */
export const printLine = (text: string): Effect.Effect<void> => Console.log(printable(text))

/** `Console.error` of text that may hold untrusted parts. */
export const printError = (text: string): Effect.Effect<void> => Console.error(printable(text))

const printableArgument = (value: unknown): unknown => (typeof value === "string" ? printable(value) : value)

/** A console that escapes what it is given, for commands whose lines quote a device's bytes or a config's text. */
export const printableConsole = (base: Console.Console): Console.Console => ({
  ...base,
  log: (...args) => base.log(...args.map(printableArgument)),
  info: (...args) => base.info(...args.map(printableArgument)),
  warn: (...args) => base.warn(...args.map(printableArgument)),
  error: (...args) => base.error(...args.map(printableArgument))
})

/**
 * Runs a command's handler with the printable console: every line it prints, from whichever module,
 * has its control characters escaped. Not around the CLI as a whole: its help may color itself.
 */
export const withPrintableConsole = <A, E, R>(handler: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Console.consoleWith((base) => Effect.provideService(handler, Console.Console, printableConsole(base)))
