/** What a bench server counts: session requests (GET of the session route) and adapter reads. */
export interface Counts {
  sessionRequests: number
  adapterReads: number
}

/** The adapter with every read counted (`get*`, `list*` for latchkey's; `find*`, `count` for better-auth's). */
export function countReads<T extends object>(adapter: T, isRead: (name: string) => boolean, counts: Counts): T {
  return new Proxy(adapter, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver)
      if (typeof value !== 'function' || typeof key !== 'string' || !isRead(key)) return value
      return (...args: unknown[]) => {
        counts.adapterReads++
        return value.apply(target, args)
      }
    },
  })
}
