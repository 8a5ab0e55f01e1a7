import type { SMTPTransportOptions } from 'nodemailer'
import type { EmailConfig } from '../core/types.js'
import { definedOnly, required, signInMessage, type EmailUserConfig } from './lib/index.js'

export interface NodemailerUserConfig extends EmailUserConfig {
  /** An SMTP URL (`smtp://user:pass@host:587`) or nodemailer's SMTP transport options. */
  server?: string | SMTPTransportOptions
  /** The sender address. */
  from?: string
}

/** The nodemailer module, loaded on first use: it is an optional peer dependency. */
async function loadNodemailer() {
  try {
    return await import('nodemailer')
  } catch (cause) {
    throw new Error('Nodemailer: the `nodemailer` package is not installed (npm install nodemailer)', { cause })
  }
}

/** Email by SMTP through nodemailer. Needs `server` (an SMTP URL or transport options) and `from`. */
export default function Nodemailer(config: NodemailerUserConfig = {}): EmailConfig {
  const provider: EmailConfig = {
    id: 'nodemailer',
    type: 'email',
    name: 'Email',
    maxAge: 24 * 60 * 60,
    async sendVerificationRequest(params) {
      const server = required('Nodemailer', 'server', (params.provider?.server ?? provider.server) as NodemailerUserConfig['server'])
      const from = required('Nodemailer', 'from', params.provider?.from ?? provider.from)
      const { createTransport } = await loadNodemailer()
      const transport = createTransport(server)
      try {
        const { subject, text, html } = signInMessage(params)
        const result = await transport.sendMail({ to: params.identifier, from, subject, text, html })
        const failed = [...(result.rejected ?? []), ...(result.pending ?? [])]
        if (failed.length) {
          throw new Error(`Nodemailer: the SMTP server did not accept ${failed.map(String).join(', ')}`)
        }
      } finally {
        transport.close()
      }
    },
    ...definedOnly(config),
    options: { ...config },
  }
  return provider
}
