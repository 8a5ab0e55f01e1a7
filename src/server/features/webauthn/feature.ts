/**
 * Passkeys (WebAuthn): options from /webauthn-options, the ceremony's answer to /callback, the
 * user's list at /passkeys. A passkey can make a user whose address nobody vouched for, so the
 * first proof of that address removes the passkeys made before it.
 */
import type { AdapterUser, WebAuthnConfig } from '../../../core/types.js'
import type { AdapterMethod } from '../../kernel/adapter-methods.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import { usedByProvidersOf, type LatchkeyPlugin } from '../../kernel/plugin.js'
import type { Context } from '../../kernel/context.js'
import { noteConfirm } from '../../sign-in/confirm.js'
import { getPasskeys, postPasskeys } from './passkeys-route.js'
import { toPasskeyInfo } from './records.js'
import { removePasskeyRecords } from './remove.js'
import { checkHints } from './hints.js'
import { keyProofs } from './key-proofs.js'
import { checkRelatedOrigins, getRelatedOrigins } from './related-origins.js'
import { markUpgrade, upgradeCookie } from './upgrade.js'
import { challengeCookie } from './challenge.js'

// The verification-token pair keeps each challenge single-use across servers.
const needs: AdapterMethod[] = ['createAuthenticator', 'getAuthenticator', 'listAuthenticatorsByUserId', 'updateAuthenticatorCounter', 'getAccount', 'createVerificationToken', 'useVerificationToken']

// The ceremonies (and @simplewebauthn/server, which patches the global Reflect) load on the first
// options or callback request of this feature, not at start-up; a bundler splits them off.
const ceremonies = () => import('./callback.js')
const options = () => import('./options-route.js')

export const webauthn: LatchkeyPlugin = {
  id: 'webauthn',
  uses: usedByProvidersOf('webauthn'),
  cookies: [challengeCookie, upgradeCookie],
  configure(_, resolved) {
    for (const p of resolved.providers.values()) {
      if (p.type !== 'webauthn') continue
      checkRelatedOrigins(p)
      checkHints(p)
      // The first WebAuthn provider's keys prove a user for other features (mfa's second factor).
      resolved.keyProofs ??= keyProofs(p)
    }
  },
  routes: {
    'webauthn-options': { GET: async (ctx, providerId) => (await options()).getWebAuthnOptions(ctx, providerId), provider: true },
    passkeys: { GET: getPasskeys, POST: postPasskeys },
    // At the origin's root, not under basePath (kernel: `.well-known/` routes).
    '.well-known/webauthn': { GET: getRelatedOrigins },
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
    // A sign-in by password, email or OAuth may be followed by an automatic passkey upgrade (upgrade.ts).
    afterSignIn: markUpgrade,
  },
}

async function removeUnprovenPasskeys(ctx: Context, user: AdapterUser): Promise<{ removed: number }> {
  const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId', 'deleteAuthenticator'], 'proving an address where passkeys can be registered')
  const passkeys = await adapter.listAuthenticatorsByUserId(user.id)
  for (const passkey of passkeys) await removePasskeyRecords(ctx, passkey)
  if (passkeys.length) await ctx.config.events.passkeysRemoved?.({ user, passkeys: passkeys.map(toPasskeyInfo) })
  return { removed: passkeys.length }
}
