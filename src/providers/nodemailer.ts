import type { SMTPTransportOptions } from 'nodemailer'
import type { EmailConfig } from '../core/types.js'
import { definedOnly, signInMessage, type EmailUserConfig } from './lib/index.js'
import { sendSmtp, type NodemailerModule, type SmtpMessage, type SmtpSettings } from './lib/smtp.js'

export interface NodemailerUserConfig extends EmailUserConfig {
  /** An SMTP URL (`smtp://user:pass@host:587`) or nodemailer's SMTP transport options. */
  server?: string | SMTPTransportOptions
  /** The sender address. */
  from?: string
}

/** The nodemailer module, loaded on first use: it is an optional peer dependency. */
const loadNodemailer = async () => (await import('nodemailer')) as unknown as NodemailerModule

/** Sends one message through `provider`'s SMTP server, from its sender; a refused recipient is an error. */
const send = (provider: SmtpSettings, message: SmtpMessage) => sendSmtp('Nodemailer', loadNodemailer, provider, message)

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
