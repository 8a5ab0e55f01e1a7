import type { EmailConfig } from '../core/types.js'
import { definedOnly, basic, optionOf, required, sendEmailRequest, signInMessage, trimBase, type EmailUserConfig } from './lib/index.js'

export interface ForwardEmailUserConfig extends EmailUserConfig {
  /** A Forward Email API token (sent as the HTTP Basic user name). */
  apiKey?: string
  /** The sender, on a domain set up in Forward Email. */
  from?: string
  /** The API's base URL, for tests and proxies. Default `https://api.forwardemail.net`. */
  apiBaseUrl?: string
}

/** Forward Email (POST /v1/emails). Needs `apiKey` and `from`. */
export default function ForwardEmail(config: ForwardEmailUserConfig = {}): EmailConfig {
  const provider: EmailConfig = {
    id: 'forwardemail',
    type: 'email',
    name: 'Forward Email',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const apiKey = required('Forward Email', 'apiKey', optionOf<string>(params, provider, 'apiKey'))
      const from = required('Forward Email', 'from', params.provider?.from ?? provider.from)
      const base = trimBase(optionOf<string>(params, provider, 'apiBaseUrl') ?? 'https://api.forwardemail.net')
      const { subject, text, html } = params.message ?? signInMessage(params)
      await sendEmailRequest('Forward Email', `${base}/v1/emails`, {
        method: 'POST',
        headers: { Authorization: basic(apiKey, ''), 'Content-Type': 'application/json' },
        body: JSON.stringify({ from, to: params.identifier, subject, text, html }),
      })
    },
    ...definedOnly(config),
    options: { ...config },
  }
  return provider
}
