/**
 * Work under way, for a "settled" signal a test can await (the worker's `settle` message,
 * `<latchkey-signin>.settled`): `track` holds a promise until it ends.
 */
export function underWay() {
  const pending = new Set<Promise<unknown>>()
  return {
    track<T>(work: Promise<T>): Promise<T> {
      pending.add(work)
      void work.finally(() => pending.delete(work)).catch(() => {})
      return work
    },
    busy: () => pending.size > 0,
    /** Resolves once nothing tracked is left, work tracked meanwhile included. */
    async settled(): Promise<void> {
      while (pending.size) await Promise.allSettled(pending)
    },
  }
}
