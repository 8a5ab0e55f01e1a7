/**
 * A part of a plugin loaded on its first use, not at start-up: a bundler splits it off, so an
 * instance that never signs in that way never loads it. The module is then held; later calls
 * cost one resolved promise.
 */
export function lazy<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | undefined
  return () => (loading ??= load().catch((error: unknown) => {
    // A failed load (a deploy that lost a chunk) is tried again on the next use.
    loading = undefined
    throw error
  }))
}
