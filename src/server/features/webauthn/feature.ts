/**
 * Passkeys (WebAuthn): options from /webauthn-options, the ceremony's answer to /callback, the
 * user's list at /passkeys. A passkey can make a user whose address nobody vouched for, so the
 * first proof of that address removes the passkeys made before it.
 */
import type { AdapterUser, WebAuthnConfig } from '../../../core/types.js'
import type { AdapterMethod } from '../../kernel/adapter-methods.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Feature } from '../../kernel/feature.js'
import type { Context } from '../../kernel/context.js'
import { noteConfirm } from '../../sign-in/confirm.js'
import { getPasskeys, postPasskeys } from './passkeys-route.js'
import { toPasskeyInfo } from './records.js'
import { removePasskeyRecords } from './remove.js'

// The verification-token pair keeps each challenge single-use across servers.
const needs: AdapterMethod[] = ['createAuthenticator', 'getAuthenticator', 'listAuthenticatorsByUserId', 'updateAuthenticatorCounter', 'getAccount', 'createVerificationToken', 'useVerificationToken']

// The ceremonies (and @simplewebauthn/server, which patches the global Reflect) load on the first
// options or callback request of this feature, not at start-up; a bundler splits them off.
const ceremonies = () => import('./callback.js')
const options = () => import('./options-route.js')

export const webauthn: Feature = {
  name: 'webauthn',
  routes: {
    'webauthn-options': { GET: async (ctx, providerId) => (await options()).getWebAuthnOptions(ctx, providerId), provider: true },
    passkeys: { GET: getPasskeys, POST: postPasskeys },
  },
  method: {
    types: ['webauthn'],
    leavesSite: false,
    async callback(ctx, provider, body) {
      await noteConfirm(ctx, body, false)
      return (await ceremonies()).webauthnCallback(ctx, provider as WebAuthnConfig, body)
    },
    // The first proof of an address removes the passkeys and sessions made before it.
    adapterMethods: (config) => [...needs, 'deleteAuthenticator', ...(config.session.strategy === 'database' ? (['deleteSessionsByUserId'] as const) : [])],
    // Passkeys are offered by the page's own script, not by a form.
    pageForm: () => null,
    onAddressProven: removeUnprovenPasskeys,
  },
}

async function removeUnprovenPasskeys(ctx: Context, user: AdapterUser): Promise<{ removed: number }> {
  const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId', 'deleteAuthenticator'], 'proving an address where passkeys can be registered')
  const passkeys = await adapter.listAuthenticatorsByUserId(user.id)
  for (const passkey of passkeys) await removePasskeyRecords(ctx, passkey)
  if (passkeys.length) await ctx.config.events.passkeysRemoved?.({ user, passkeys: passkeys.map(toPasskeyInfo) })
  return { removed: passkeys.length }
}
