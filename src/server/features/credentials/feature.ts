/** Credentials: the app's `authorize` decides, in one POST to /callback (or /signin). */
import type { CredentialsConfig } from '../../../core/types.js'
import { usedByProvidersOf, type LatchkeyPlugin } from '../../kernel/plugin.js'
import { redirect } from '../../kernel/respond.js'
import { escapeHtml } from '../../kernel/page-html.js'
import { postedCallback } from '../../sign-in/posted-callback.js'
import { answerDue } from '../../sign-in/complete.js'
import { signInWithCredentials } from './sign-in.js'

type Field = { label?: string; type?: string; placeholder?: string }

export const credentials: LatchkeyPlugin = {
  id: 'credentials',
  uses: usedByProvidersOf('credentials'),
  method: {
    types: ['credentials'],
    leavesSite: false,
    async start(ctx, provider, body, callbackUrl) {
      return answerDue(ctx, await signInWithCredentials(ctx, provider as CredentialsConfig<any>, body)) ?? redirect(ctx, callbackUrl)
    },
    callback: (ctx, provider, body) => postedCallback(ctx, body, 'Credentials', () => signInWithCredentials(ctx, provider as CredentialsConfig<any>, body)),
    pageForm(provider, app, hidden, words) {
      const fields = ((provider as CredentialsConfig<any>).credentials ?? {}) as Record<string, Field>
      const inputs = Object.entries(fields)
        .map(([name, f]) => `<label>${escapeHtml(f.label ?? name)} <input name="${escapeHtml(name)}" type="${escapeHtml(f.type ?? 'text')}" placeholder="${escapeHtml(f.placeholder ?? '')}"></label>`)
        .join('')
      return `<form method="post" action="${escapeHtml(app.callbackUrl)}">${hidden}${inputs}<button>${words.html('signInWith', { name: app.name })}</button></form>`
    },
    // `authorize` keeps its users outside latchkey: only a sign-in it just accepted shows it knows this one.
    keepsWayIn: (_, provider, __, signInProvider) => signInProvider === provider.id,
  },
}
