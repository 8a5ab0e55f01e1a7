/**
 * What the client asks of the user's interaction (OpenID Connect Core §3.1.2.1, used for any
 * request): `prompt=none` (no page at all: a sign-in or consent it would need is the client's
 * `login_required` or `consent_required`), `prompt=login` (a sign-in made after the request),
 * `prompt=consent` (asked again, whatever was remembered), `max_age` (a sign-in at most that many
 * seconds old); and `nonce`, kept for the ID token.
 */
import type { Body } from 'latchkey/server'
import { param } from './clients.js'
import { OAuthError } from './errors.js'
import type { AuthorizationRequest } from './options.js'

const prompts = ['none', 'login', 'consent'] as const

/** The request's nonce, prompt and max_age, checked: refusals are the client's invalid_request. */
export function interactionParams(params: Body): Pick<AuthorizationRequest, 'nonce' | 'prompt' | 'max_age'> {
  const nonce = param(params, 'nonce')
  const prompt = param(params, 'prompt')
  const maxAge = param(params, 'max_age')
  const asked = prompt === undefined ? [] : [...new Set(prompt.split(' ').filter(Boolean))]
  if (asked.some((p) => !(prompts as readonly string[]).includes(p))) throw new OAuthError('invalid_request', `prompt must be some of ${prompts.join(', ')}`)
  if (asked.includes('none') && asked.length > 1) throw new OAuthError('invalid_request', 'prompt=none cannot be asked with another prompt')
  if (maxAge !== undefined && !/^\d{1,9}$/.test(maxAge)) throw new OAuthError('invalid_request', 'max_age must be a whole number of seconds')
  if (nonce !== undefined && nonce.length > 512) throw new OAuthError('invalid_request', 'nonce is longer than 512 characters')
  return { ...(nonce !== undefined && { nonce }), ...(asked.length && { prompt: asked.sort().join(' ') }), ...(maxAge !== undefined && { max_age: String(Number(maxAge)) }) }
}

export const promptsOf = (request: AuthorizationRequest) => (request.prompt ?? '').split(' ').filter(Boolean)

/**
 * What the session the user holds lacks for this request: `sign-in` (none, one before the request
 * with prompt=login, or older than max_age), `unknown` (the store keeps no sign-in instant, so
 * neither can be proven: answered login_required rather than sending the user round in a circle),
 * or nothing.
 */
export function signInLacking(request: AuthorizationRequest, session: { signedInAt?: number } | null, requestedAt: number, now: number): 'sign-in' | 'unknown' | undefined {
  if (!session) return 'sign-in'
  const asked = promptsOf(request)
  const login = asked.includes('login')
  if (!login && request.max_age === undefined) return undefined
  const at = session.signedInAt
  if (at === undefined) return 'unknown'
  if (login && at < requestedAt) return 'sign-in'
  if (request.max_age !== undefined && now - at > Number(request.max_age) * 1000) return 'sign-in'
  return undefined
}
