/**
 * Polls `check` until it returns a value other than `undefined`, or fails after `timeoutMs`.
 * The bounded loop every test should use instead of fixed sleeps: it returns as soon as the
 * condition holds and says what it was waiting for when it does not.
 */
export const eventually = async <A>(
  what: string,
  check: () => A | undefined | Promise<A | undefined>,
  { timeoutMs = 5_000, intervalMs = 20 }: { readonly timeoutMs?: number; readonly intervalMs?: number } = {}
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
