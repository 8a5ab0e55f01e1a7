import type { EmailConfig } from '../core/types.js'
import { definedOnly, optionOf, required, sendEmailRequest, signInMessage, trimBase, type EmailUserConfig } from './lib/index.js'

export interface PostmarkUserConfig extends EmailUserConfig {
  /** A Postmark server API token. */
  apiKey?: string
  /** A confirmed sender signature or an address on a verified domain. */
  from?: string
  /** The message stream; default `outbound`. */
  messageStream?: string
  /** The API's base URL, for tests and proxies. Default `https://api.postmarkapp.com`. */
  apiBaseUrl?: string
}

/** Postmark (POST /email). Needs `apiKey` (the server token) and `from`. */
export default function Postmark(config: PostmarkUserConfig = {}): EmailConfig {
  const provider: EmailConfig = {
    id: 'postmark',
    type: 'email',
    name: 'Postmark',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const apiKey = required('Postmark', 'apiKey', optionOf<string>(params, provider, 'apiKey'))
      const from = required('Postmark', 'from', params.provider?.from ?? provider.from)
      const base = trimBase(optionOf<string>(params, provider, 'apiBaseUrl') ?? 'https://api.postmarkapp.com')
      const { subject, text, html } = params.message ?? signInMessage(params)
      await sendEmailRequest('Postmark', `${base}/email`, {
        method: 'POST',
        headers: { 'X-Postmark-Server-Token': apiKey, Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({
          From: from,
          To: params.identifier,
          Subject: subject,
          TextBody: text,
          HtmlBody: html,
          MessageStream: optionOf<string>(params, provider, 'messageStream') ?? 'outbound',
        }),
      })
    },
    ...definedOnly(config),
    options: { ...config },
  }
  return provider
}
