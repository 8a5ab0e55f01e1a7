import type { EmailConfig } from '../core/types.js'
import { definedOnly, optionOf, required, sendEmailRequest, signInMessage, trimBase, type EmailUserConfig } from './lib/index.js'

export interface SendgridUserConfig extends EmailUserConfig {
  /** A SendGrid API key with the Mail Send permission. */
  apiKey?: string
  /** A verified sender address. */
  from?: string
  /** The API's base URL, for tests and proxies (or `https://api.eu.sendgrid.com`). Default `https://api.sendgrid.com`. */
  apiBaseUrl?: string
}

/** Twilio SendGrid (POST /v3/mail/send). Needs `apiKey` and `from`. */
export default function SendGrid(config: SendgridUserConfig = {}): EmailConfig {
  const provider: EmailConfig = {
    id: 'sendgrid',
    type: 'email',
    name: 'SendGrid',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const apiKey = required('SendGrid', 'apiKey', optionOf<string>(params, provider, 'apiKey'))
      const from = required('SendGrid', 'from', params.provider?.from ?? provider.from)
      const base = trimBase(optionOf<string>(params, provider, 'apiBaseUrl') ?? 'https://api.sendgrid.com')
      const { subject, text, html } = params.message ?? signInMessage(params)
      await sendEmailRequest('SendGrid', `${base}/v3/mail/send`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          personalizations: [{ to: [{ email: params.identifier }] }],
          from: { email: from },
          subject,
          content: [
            { type: 'text/plain', value: text },
            { type: 'text/html', value: html },
          ],
        }),
      })
    },
    ...definedOnly(config),
    options: { ...config },
  }
  return provider
}
