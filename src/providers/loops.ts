import type { EmailConfig } from '../core/types.js'
import { definedOnly, optionOf, required, sendEmailRequest, trimBase, type EmailUserConfig } from './lib/index.js'

export interface LoopsUserConfig extends EmailUserConfig {
  /** A Loops API key. */
  apiKey?: string
  /** The id of the transactional email, published in Loops, whose template uses the data variable `url`. */
  transactionalId?: string
  /** The API's base URL, for tests and proxies. Default `https://app.loops.so/api`. */
  apiBaseUrl?: string
}

/**
 * Loops (POST /v1/transactional). Needs `apiKey` and `transactionalId`; the sender and the
 * message are set on the transactional email in Loops, which receives the link as `url`.
 */
export default function Loops(config: LoopsUserConfig = {}): EmailConfig {
  const provider: EmailConfig = {
    id: 'loops',
    type: 'email',
    name: 'Loops',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const apiKey = required('Loops', 'apiKey', optionOf<string>(params, provider, 'apiKey'))
      const transactionalId = required('Loops', 'transactionalId', optionOf<string>(params, provider, 'transactionalId'))
      const base = trimBase(optionOf<string>(params, provider, 'apiBaseUrl') ?? 'https://app.loops.so/api')
      await sendEmailRequest('Loops', `${base}/v1/transactional`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ transactionalId, email: params.identifier, dataVariables: { url: params.url } }),
      })
    },
    ...definedOnly(config),
    options: { ...config },
  }
  return provider
}
