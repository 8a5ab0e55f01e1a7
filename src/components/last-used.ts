/**
 * "Last used": the provider of the last sign-in on this device, in localStorage (no cookie, so
 * no other site and no server sees it). A sign-in started here is remembered as tried, and
 * becomes the last used once a session appears (after an OAuth round trip too).
 */
const tried = 'latchkey:tried-provider'
const last = 'latchkey:last-provider'

/** Storage can be off (private modes, policies): then there is simply no badge. */
function storage(): Storage | undefined {
  try {
    return localStorage
  } catch {
    return undefined
  }
}

export function triedWith(provider: string): void {
  try {
    storage()?.setItem(tried, provider)
  } catch {}
}

/** The last used provider; `signedIn`: a session is there, so the one tried becomes it (answers whether it changed). */
export function lastUsed(signedIn: true): boolean
export function lastUsed(): string | null
export function lastUsed(signedIn?: true): string | null | boolean {
  const store = storage()
  if (!signedIn) return store?.getItem(last) ?? null
  const provider = store?.getItem(tried)
  if (!provider) return false
  try {
    store!.setItem(last, provider)
    store!.removeItem(tried)
  } catch {}
  return true
}
