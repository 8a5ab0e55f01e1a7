/**
 * Who delivers the messages latchkey (or a plugin) writes: an email provider that delivers
 * messages latchkey wrote (`sendMail`: the Nodemailer provider has it, and any `Email({ sendMail })`).
 */
import type { EmailConfig } from '../../core/types.js'
import type { Context } from './context.js'
import type { EmailMessage } from './email-message.js'

export type SendMail = (message: EmailMessage & { to: string }) => Promise<void>

/** The configured sender, or undefined where no email provider delivers written messages. */
export function findMailer(ctx: Context): SendMail | undefined {
  for (const provider of ctx.config.providers.values()) {
    const { sendMail } = provider as EmailConfig
    if (provider.type === 'email' && typeof sendMail === 'function') return (message) => sendMail.call(provider, message)
  }
  return undefined
}
