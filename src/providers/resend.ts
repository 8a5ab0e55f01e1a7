import type { EmailConfig } from '../core/types.js'
import { definedOnly, optionOf, required, sendEmailRequest, signInMessage, trimBase, type EmailUserConfig } from './lib/index.js'

export interface ResendUserConfig extends EmailUserConfig {
  /** A Resend API key (`re_...`). */
  apiKey?: string
  /** The sender, on a domain verified in Resend: `"App <login@example.com>"`. */
  from?: string
  /** The API's base URL, for tests and proxies. Default `https://api.resend.com`. */
  apiBaseUrl?: string
}

/** Resend (POST /emails). Needs `apiKey` and `from`. */
export default function Resend(config: ResendUserConfig = {}): EmailConfig {
  const provider: EmailConfig = {
    id: 'resend',
    type: 'email',
    name: 'Resend',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const apiKey = required('Resend', 'apiKey', optionOf<string>(params, provider, 'apiKey'))
      const from = required('Resend', 'from', params.provider?.from ?? provider.from)
      const base = trimBase(optionOf<string>(params, provider, 'apiBaseUrl') ?? 'https://api.resend.com')
      const { subject, text, html } = params.message ?? signInMessage(params)
      await sendEmailRequest('Resend', `${base}/emails`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ from, to: params.identifier, subject, html, text }),
      })
    },
    ...definedOnly(config),
    options: { ...config },
  }
  return provider
}
