/** Resources a test started, released in reverse order by `release()` in `afterEach`. */
export const resources = () => {
  const stack: Array<() => unknown> = []
  return {
    defer: (release: () => unknown) => {
      stack.push(release)
    },
    release: async () => {
      // Bounded: every pass pops one.
      while (stack.length > 0) await stack.pop()!()
    }
  }
}
export type Resources = ReturnType<typeof resources>
