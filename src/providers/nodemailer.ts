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

/** Sends one message through `provider`'s SMTP server, from its sender; a refused recipient is an error. */
async function send(provider: Pick<EmailConfig, 'server' | 'from'>, message: { to: string; subject: string; text: string; html: string }): Promise<void> {
  const server = required('Nodemailer', 'server', provider.server as NodemailerUserConfig['server'])
  const from = required('Nodemailer', 'from', provider.from)
  const { createTransport } = await loadNodemailer()
  const transport = createTransport(server)
  try {
    const result = await transport.sendMail({ ...message, from })
    const failed = [...(result.rejected ?? []), ...(result.pending ?? [])]
    if (failed.length) throw new Error(`Nodemailer: the SMTP server did not accept ${failed.map(String).join(', ')}`)
  } finally {
    transport.close()
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
      // The provider the sign-in names may be another (an app's email provider sending through this one): each setting falls back to ours.
      const via = { server: params.provider?.server ?? provider.server, from: params.provider?.from ?? provider.from }
      await send(via, { to: params.identifier, ...(params.message ?? signInMessage(params)) })
    },
    sendMail: (message) => send(provider, message),
    ...definedOnly(config),
    options: { ...config },
  }
  return provider
}
