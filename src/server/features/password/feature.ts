/**
 * Email-and-password accounts (`Password()` provider, docs/passwords.md): the sign-in is the
 * provider's callback (sign-in.ts), the account's life is /password (routes.ts). On the wire the
 * provider is a credentials provider; its kind `password` brings it here.
 */
import type { PasswordConfig } from '../../../providers/password.js'
import type { Context } from '../../kernel/context.js'
import { usedByProvidersOf, type LatchkeyPlugin } from '../../kernel/plugin.js'
import { redirect } from '../../kernel/respond.js'
import { escapeHtml } from '../../kernel/page-html.js'
import { postedCallback } from '../../sign-in/posted-callback.js'
import { lazy } from '../../kernel/lazy.js'
import { passwordMethods, passwordOptions, resolvePassword, type ResolvedPassword } from './options.js'
import { resolvePasswordLengths } from './lengths.js'

// Hashing, the policy, links and codes, emails and pages load on the first sign-in or /password
// request; what stays here checks the options at start-up and draws the sign-in form.
const routes = lazy(() => import('./routes.js'))
const signIn = lazy(() => import('./sign-in.js'))
const addressProven = lazy(() => import('./address-proven.js'))

/** The instance's Password provider: the first one (its /password routes); installed only with one. */
function on(ctx: Context): ResolvedPassword {
  const first = [...ctx.config.providers.values()].find((p) => (p as { kind?: string }).kind === 'password')!
  return passwordOptions(ctx.config, first.id)!
}

const optionsOf = (ctx: Context, provider: PasswordConfig) => passwordOptions(ctx.config, provider.id)!

export const password: LatchkeyPlugin = {
  id: 'password',
  errorCodes: ['PasswordBreached', 'PasswordTooLong', 'PasswordTooShort', 'EmailNotVerified'],
  uses: usedByProvidersOf('password'),
  routes: {
    password: {
      GET: async (ctx, sub) => (await routes()).getPassword(ctx, sub, on(ctx)),
      POST: async (ctx, sub) => (await routes()).postPassword(ctx, sub, on(ctx)),
      provider: true,
    },
  },
  configure(_config, resolved) {
    for (const p of resolved.providers.values()) if ((p as { kind?: string }).kind === 'password') resolvePassword(p as unknown as PasswordConfig, resolved)
  },
  method: {
    types: ['password'],
    leavesSite: false,
    async start(ctx, provider, body, callbackUrl) {
      await (await signIn()).signInWithPassword(ctx, provider as unknown as PasswordConfig, optionsOf(ctx, provider as unknown as PasswordConfig), body)
      return redirect(ctx, callbackUrl)
    },
    callback: (ctx, provider, body) =>
      postedCallback(ctx, body, 'Password', async () => (await signIn()).signInWithPassword(ctx, provider as unknown as PasswordConfig, optionsOf(ctx, provider as unknown as PasswordConfig), body)),
    adapterMethods: (config) => [...passwordMethods, ...(config.session.strategy === 'database' ? (['deleteSessionsByUserId', 'listSessionsByUserId', 'deleteSession'] as const) : [])],
    // The sign-in form, and the links to this feature's other ways in (its forms: pages.ts).
    pageForm(_provider, app, hidden, words, ctx) {
      const link = (sub: string, key: 'forgotPassword' | 'createAccount') => `<a href="${escapeHtml(`${ctx.baseUrl}/password/${sub}`)}">${words.html(key)}</a>`
      return (
        `<form method="post" action="${escapeHtml(app.callbackUrl)}">${hidden}` +
        `<label>${words.html('email')} <input name="email" type="email" autocomplete="username" required></label>` +
        `<label>${words.html('password')} <input name="password" type="password" autocomplete="current-password" required></label>` +
        `<button>${words.html('signInWith', { name: app.name })}</button></form>` +
        `<p class="links">${link('forgot', 'forgotPassword')}${link('sign-up', 'createAccount')}</p>`
      )
    },
    describe(provider) {
      const { minLength, maxLength } = resolvePasswordLengths((provider as unknown as PasswordConfig).options?.minLength, (provider as unknown as PasswordConfig).options?.maxLength)
      return { password: { minLength, maxLength } } as never
    },
    // Its users' passwords are latchkey's: a sign-in with one shows it is there.
    keepsWayIn: (_, provider, __, signInProvider) => signInProvider === provider.id,
    onAddressProven: async (ctx, user) => (await addressProven()).removeUnprovenPassword(ctx, user),
    // Its link or code confirms the address (routes.ts, verify and reset).
    provesAddress: () => true,
  },
}
