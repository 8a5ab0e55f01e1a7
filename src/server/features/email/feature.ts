/** Email links: /signin sends one, /callback takes it. */
import type { EmailConfig } from '../../../core/types.js'
import { stringField } from '../../kernel/body.js'
import type { Feature } from '../../kernel/feature.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { redirect } from '../../kernel/respond.js'
import { escapeHtml } from '../../routes/page-html.js'
import { withSignInNotice } from '../../sign-in/first-proof.js'
import { enforceRateLimit } from '../rate-limit/config.js'
import { emailIdentifier, sendEmailLink, verifyEmailLink } from './link.js'

export const email: Feature = {
  name: 'email',
  method: {
    types: ['email'],
    leavesSite: true,
    async start(ctx, provider, body, callbackUrl) {
      // Counted by the address the link goes to, after the provider's own normalising.
      const identifier = emailIdentifier(provider as EmailConfig, stringField(body, 'email'))
      await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'email', identifier, ctx.now)
      await sendEmailLink(ctx, provider as EmailConfig, identifier, callbackUrl)
      return redirect(ctx, ctx.config.pages.verifyRequest ?? `${ctx.baseUrl}/verify-request?provider=${encodeURIComponent(provider.id)}&type=email`)
    },
    async callback(ctx, provider) {
      await verifyEmailLink(ctx, provider as EmailConfig)
      return redirect(ctx, withSignInNotice(ctx, await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl') ?? undefined)))
    },
    adapterMethods: () => ['createVerificationToken', 'useVerificationToken'],
    pageForm: (_, app, hidden) =>
      `<form method="post" action="${escapeHtml(app.signinUrl)}">${hidden}<label>Email <input type="email" name="email" required autocomplete="email"></label><button>Sign in with ${escapeHtml(app.name)}</button></form>`,
    // A proven address can always get a link (an unproven one may not be the user's: first-proof.ts).
    keepsWayIn: (_, __, user) => !!user.emailVerified,
  },
}
