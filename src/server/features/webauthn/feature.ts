/**
 * Passkeys (WebAuthn): options from /webauthn-options, the ceremony's answer to /callback, the
 * user's list at /passkeys. A passkey can make a user whose address nobody vouched for, so the
 * first proof of that address removes the passkeys made before it.
 *
 * Start-up holds only what runs as an instance is built (the option checks, the cookie names,
 * the key-proof service's shell). The rest, with @simplewebauthn/server (which patches the global
 * Reflect) and the authenticator names' table, loads on its first use: a bundler splits it off.
 */
import type { WebAuthnConfig } from '../../../core/types.js'
import type { AdapterMethod } from '../../kernel/adapter-methods.js'
import { lazy } from '../../kernel/lazy.js'
import { usedByProvidersOf, type LatchkeyPlugin } from '../../kernel/plugin.js'
import { noteConfirm } from '../../sign-in/confirm.js'
import { challengeCookie, upgradeCookie } from './cookies.js'
import { checkHints } from './hints.js'
import { keyProofs } from './key-proofs.js'
import { passkeyPageForm, passkeyPageScript } from './page.js'
import { checkRelatedOrigins } from './related-origins.js'

// The verification-token pair keeps each challenge single-use across servers.
const needs: AdapterMethod[] = ['createAuthenticator', 'getAuthenticator', 'listAuthenticatorsByUserId', 'updateAuthenticatorCounter', 'getAccount', 'createVerificationToken', 'useVerificationToken']

const ceremonies = lazy(() => import('./callback.js'))
const options = lazy(() => import('./options-route.js'))
const passkeys = lazy(() => import('./passkeys-route.js'))
const wellKnown = lazy(() => import('./well-known-route.js'))
const addressProven = lazy(() => import('./address-proven.js'))
const upgrade = lazy(() => import('./upgrade.js'))

export const webauthn: LatchkeyPlugin = {
  id: 'webauthn',
  errorCodes: ['WebAuthnVerificationError'],
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
    passkeys: {
      GET: async (ctx) => (await passkeys()).getPasskeys(ctx),
      POST: async (ctx) => (await passkeys()).postPasskeys(ctx),
    },
    // At the origin's root, not under basePath (kernel: `.well-known/` routes).
    '.well-known/webauthn': { GET: async (ctx) => (await wellKnown()).getRelatedOrigins(ctx) },
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
    // On the built-in sign-in page, a form its script drives (page.ts).
    pageForm: (provider, app, hidden, words, ctx) => passkeyPageForm(ctx, provider, app, hidden, words),
    pageScript: passkeyPageScript,
    onAddressProven: async (ctx, user) => (await addressProven()).removeUnprovenPasskeys(ctx, user),
    // A sign-in by password, email or OAuth may be followed by an automatic passkey upgrade (upgrade.ts).
    afterSignIn: async (ctx, signIn) => (await upgrade()).markUpgrade(ctx, signIn),
  },
}
