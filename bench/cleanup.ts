/**
 * Everything the bench started, released in reverse order: on a normal end, on an error, and
 * on Ctrl-C or SIGTERM (Node would otherwise die at once and leave socat, mosquitto and the
 * daemon running).
 */
export interface Cleanup {
  readonly defer: (release: () => unknown) => void
  readonly releaseAll: () => Promise<void>
}

export const makeCleanup = (): Cleanup => {
  const stack: Array<() => unknown> = []
  let releasing: Promise<void> | undefined
  const releaseAll = (): Promise<void> =>
    (releasing ??= (async () => {
      // Bounded: every pass pops one.
      while (stack.length > 0) {
        try {
          await stack.pop()!()
        } catch (error) {
          process.stderr.write(`bench: clean-up step failed: ${String(error)}\n`)
        }
      }
    })())
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\nbench: ${signal}, stopping everything it started\n`)
    void releaseAll().finally(() => process.exit(130))
  }
  process.once("SIGINT", onSignal)
  process.once("SIGTERM", onSignal)
  return { defer: (release) => void stack.push(release), releaseAll }
}
