/**
 * Email-and-password accounts (`Password()` provider, docs/passwords.md): the sign-in is the
 * provider's callback (sign-in.ts), the account's life is /password (routes.ts). On the wire the
 * provider is a credentials provider; its kind `password` brings it here.
 */
import type { PasswordConfig } from '../../../providers/password.js'
import type { AdapterUser } from '../../../core/types.js'
import type { Context } from '../../kernel/context.js'
import { usedByProvidersOf, type LatchkeyPlugin } from '../../kernel/plugin.js'
import { redirect } from '../../kernel/respond.js'
import { escapeHtml } from '../../kernel/page-html.js'
import { postedCallback } from '../../sign-in/posted-callback.js'
import { passwordMethods, passwordOptions, resolvePassword, type ResolvedPassword } from './options.js'
import { resolvePasswordLengths } from './policy.js'
import { getPassword, ownProof, postPassword } from './routes.js'
import { signInWithPassword } from './sign-in.js'
import { passwordStore } from './store.js'

/** The instance's Password provider: the first one (its /password routes); installed only with one. */
function on(ctx: Context): ResolvedPassword {
  const first = [...ctx.config.providers.values()].find((p) => (p as { kind?: string }).kind === 'password')!
  return passwordOptions(ctx.config, first.id)!
}

const optionsOf = (ctx: Context, provider: PasswordConfig) => passwordOptions(ctx.config, provider.id)!

export const password: LatchkeyPlugin = {
  id: 'password',
  uses: usedByProvidersOf('password'),
  routes: {
    password: {
      GET: async (ctx, sub) => getPassword(ctx, sub, on(ctx)),
      POST: async (ctx, sub) => postPassword(ctx, sub, on(ctx)),
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
      await signInWithPassword(ctx, provider as unknown as PasswordConfig, optionsOf(ctx, provider as unknown as PasswordConfig), body)
      return redirect(ctx, callbackUrl)
    },
    callback: (ctx, provider, body) =>
      postedCallback(ctx, body, 'Password', () => signInWithPassword(ctx, provider as unknown as PasswordConfig, optionsOf(ctx, provider as unknown as PasswordConfig), body)),
    adapterMethods: (config) => [...passwordMethods, ...(config.session.strategy === 'database' ? (['deleteSessionsByUserId', 'listSessionsByUserId', 'deleteSession'] as const) : [])],
    pageForm(_provider, app, hidden, words) {
      return (
        `<form method="post" action="${escapeHtml(app.callbackUrl)}">${hidden}` +
        `<label>${words.html('email')} <input name="email" type="email" autocomplete="username" required></label>` +
        `<label>${words.html('password')} <input name="password" type="password" autocomplete="current-password" required></label>` +
        `<button>${words.html('signInWith', { name: app.name })}</button></form>`
      )
    },
    describe(provider) {
      const { minLength, maxLength } = resolvePasswordLengths((provider as unknown as PasswordConfig).options?.minLength, (provider as unknown as PasswordConfig).options?.maxLength)
      return { password: { minLength, maxLength } } as never
    },
    // Its users' passwords are latchkey's: a sign-in with one shows it is there.
    keepsWayIn: (_, provider, __, signInProvider) => signInProvider === provider.id,
    onAddressProven: removeUnprovenPassword,
    // Its link or code confirms the address (routes.ts, verify and reset).
    provesAddress: () => true,
  },
}

/**
 * The first proof of an address by another way in (an email link, an OAuth account linked by
 * email): a password set before it, by whoever signed up with the address, goes.
 */
async function removeUnprovenPassword(ctx: Context, user: AdapterUser): Promise<{ removed: number }> {
  if (ownProof.has(ctx)) return { removed: 0 }
  const store = passwordStore(ctx)
  if (!(await store.getPasswordHash(user.id))) return { removed: 0 }
  await store.setPasswordHash(user.id, null)
  return { removed: 1 }
}
