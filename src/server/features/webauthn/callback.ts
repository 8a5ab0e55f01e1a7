/**
 * POST /callback/:provider for WebAuthn providers, CSRF-checked. The body (JSON or form) has
 * `action` (register | authenticate), `data` (the response of `startRegistration` or
 * `startAuthentication`, as an object or a JSON string) and optionally `callbackUrl`.
 * Answers like every callback: a redirect, or `{ url }` with `X-Auth-Return-Redirect: 1`.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { WebAuthnConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { verifyCsrf } from '../../kernel/csrf.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { redirect, type Reply } from '../../kernel/respond.js'
import { verifyAuthentication } from './authenticate.js'
import { takeChallenge } from './challenge.js'
import { WebAuthnRefusal, withReason } from './errors.js'
import { verifyRegistration } from './register.js'
import { answerDue } from '../../sign-in/complete.js'

export function webauthnCallback(ctx: Context, provider: WebAuthnConfig, body: Body): Promise<Reply> {
  return withReason(ctx, async () => {
    if (ctx.request.method !== 'POST') throw new AuthError('UnknownAction', 'A WebAuthn callback takes POST', { status: 405 })
    await verifyCsrf(ctx, body.csrfToken)
    const action = stringField(body, 'action')
    if (action !== 'register' && action !== 'authenticate') {
      throw new WebAuthnRefusal('invalid', action ? 'Expected "action" to be register or authenticate, got another value' : 'Expected "action" to be register or authenticate, got none', { type: 'InvalidRequest' })
    }
    const data = readResponse(body.data)
    const target = await resolveCallbackUrl(ctx, stringField(body, 'callbackUrl'))
    const state = await takeChallenge(ctx, provider, action, data)
    const done = action === 'register' ? await verifyRegistration(ctx, provider, state, data as unknown as RegistrationResponseJSON) : await verifyAuthentication(ctx, provider, state, data as unknown as AuthenticationResponseJSON)
    return answerDue(ctx, done) ?? redirect(ctx, target)
  })
}

/** The browser's response: an object with a string `id` and a `response` object; the library checks the rest. */
export function readResponse(value: unknown): Record<string, unknown> {
  let data = value
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data)
    } catch {
      throw new WebAuthnRefusal('invalid', 'Expected "data" to be the JSON of a WebAuthn response, got malformed JSON', { type: 'InvalidRequest' })
    }
  }
  const record = data as Record<string, unknown> | null
  if (!record || typeof record !== 'object' || Array.isArray(record) || typeof record.id !== 'string' || !record.response || typeof record.response !== 'object') {
    throw new WebAuthnRefusal('invalid', 'Expected "data" to be a WebAuthn response with a string "id" and a "response" object', { type: 'InvalidRequest' })
  }
  return record
}
