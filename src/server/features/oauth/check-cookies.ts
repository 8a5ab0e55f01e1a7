/** The check cookies' keys, apart from the checks themselves: the plugin registers them at start-up. */
import { cookieKey, type CookieKey } from '../../kernel/cookies.js'

export type CheckName = 'pkce' | 'state' | 'nonce'

/** One cookie per kind of check (the names Auth.js gives them), each bound to a provider id inside. */
export const checkCookies: Record<CheckName, CookieKey> = { pkce: cookieKey('pkce.code_verifier'), state: cookieKey('state'), nonce: cookieKey('nonce') }
