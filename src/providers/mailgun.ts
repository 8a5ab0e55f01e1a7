import type { EmailConfig } from '../core/types.js'
import { definedOnly, basic, optionOf, required, sendEmailRequest, signInMessage, trimBase, type EmailUserConfig } from './lib/index.js'

export interface MailgunUserConfig extends EmailUserConfig {
  /** A Mailgun API key (or a domain sending key). */
  apiKey?: string
  /** The sender address. */
  from?: string
  /** The sending domain; default the domain of `from`. */
  domain?: string
  /** The API's base URL: `https://api.eu.mailgun.net` for the EU region, or a stub for tests and proxies. Default `https://api.mailgun.net`. */
  apiBaseUrl?: string
}

/** Mailgun (POST `/v3/<domain>/messages`, a form with HTTP Basic `api:<key>`). Needs `apiKey` and `from`. */
export default function Mailgun(config: MailgunUserConfig = {}): EmailConfig {
  const provider: EmailConfig = {
    id: 'mailgun',
    type: 'email',
    name: 'Mailgun',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const apiKey = required('Mailgun', 'apiKey', optionOf<string>(params, provider, 'apiKey'))
      const from = required('Mailgun', 'from', params.provider?.from ?? provider.from)
      const domain = required('Mailgun', 'domain', optionOf<string>(params, provider, 'domain') ?? from.match(/@([^>\s]+)>?\s*$/)?.[1])
      const base = trimBase(optionOf<string>(params, provider, 'apiBaseUrl') ?? 'https://api.mailgun.net')
      const { subject, text, html } = params.message ?? signInMessage(params)
      await sendEmailRequest('Mailgun', `${base}/v3/${encodeURIComponent(domain)}/messages`, {
        method: 'POST',
        headers: { Authorization: basic('api', apiKey) },
        body: new URLSearchParams({ from, to: params.identifier, subject, text, html }),
      })
    },
    ...definedOnly(config),
    options: { ...config },
  }
  return provider
}
