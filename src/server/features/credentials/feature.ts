/** Credentials: the app's `authorize` decides, in one POST to /callback (or /signin). */
import type { CredentialsConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { verifyCsrf } from '../../kernel/csrf.js'
import type { Feature } from '../../kernel/feature.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { redirect } from '../../kernel/respond.js'
import { escapeHtml } from '../../routes/page-html.js'
import { noteConfirm } from '../../sign-in/confirm.js'
import { signInWithCredentials } from './sign-in.js'

type Field = { label?: string; type?: string; placeholder?: string }

export const credentials: Feature = {
  name: 'credentials',
  method: {
    types: ['credentials'],
    leavesSite: false,
    async start(ctx, provider, body, callbackUrl) {
      await signInWithCredentials(ctx, provider as CredentialsConfig<any>, body)
      return redirect(ctx, callbackUrl)
    },
    async callback(ctx, provider, body) {
      if (ctx.request.method !== 'POST') throw new AuthError('UnknownAction', 'Credentials sign-in takes POST', { status: 405 })
      await verifyCsrf(ctx, body.csrfToken)
      await noteConfirm(ctx, body, false)
      const target = await resolveCallbackUrl(ctx, typeof body.callbackUrl === 'string' ? body.callbackUrl : undefined)
      await signInWithCredentials(ctx, provider as CredentialsConfig<any>, body)
      return redirect(ctx, target)
    },
    pageForm(provider, app, hidden) {
      const fields = ((provider as CredentialsConfig<any>).credentials ?? {}) as Record<string, Field>
      const inputs = Object.entries(fields)
        .map(([name, f]) => `<label>${escapeHtml(f.label ?? name)} <input name="${escapeHtml(name)}" type="${escapeHtml(f.type ?? 'text')}" placeholder="${escapeHtml(f.placeholder ?? '')}"></label>`)
        .join('')
      return `<form method="post" action="${escapeHtml(app.callbackUrl)}">${hidden}${inputs}<button>Sign in with ${escapeHtml(app.name)}</button></form>`
    },
    // `authorize` keeps its users outside latchkey: only a sign-in it just accepted shows it knows this one.
    keepsWayIn: (_, provider, __, signInProvider) => signInProvider === provider.id,
  },
}
