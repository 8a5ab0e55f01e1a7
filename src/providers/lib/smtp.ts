/**
 * One message by SMTP through nodemailer, an optional peer dependency: the Nodemailer provider's
 * sign-in emails and the Password provider's own sender (`Password({ server, from })`).
 */
import { required } from './email.js'

export interface SmtpMessage {
  to: string
  subject: string
  text: string
  html: string
}

/** Where and as whom: an SMTP URL (`smtp://user:pass@host:587`) or nodemailer's SMTP transport options, and the sender address. */
export interface SmtpSettings {
  server?: unknown
  from?: string
}

/** What latchkey uses of the nodemailer module. */
export interface NodemailerModule {
  createTransport(server: any): {
    sendMail(message: SmtpMessage & { from: string }): Promise<{ rejected?: unknown[]; pending?: unknown[] }>
    close(): void
  }
}

/**
 * Sends `message` through `settings`' server, from its sender; a refused recipient is an error.
 * `who` names the provider in errors; `load` imports nodemailer (a missing package throws saying
 * how to install it).
 */
export async function sendSmtp(who: string, load: () => Promise<NodemailerModule>, settings: SmtpSettings, message: SmtpMessage): Promise<void> {
  const server = required(who, 'server', settings.server)
  const from = required(who, 'from', settings.from)
  let nodemailer: NodemailerModule
  try {
    nodemailer = await load()
  } catch (cause) {
    throw new Error(`${who}: the \`nodemailer\` package is not installed (npm install nodemailer)`, { cause })
  }
  const transport = nodemailer.createTransport(server)
  try {
    const result = await transport.sendMail({ ...message, from })
    const failed = [...(result.rejected ?? []), ...(result.pending ?? [])]
    if (failed.length) throw new Error(`${who}: the SMTP server did not accept ${failed.map(String).join(', ')}`)
  } finally {
    transport.close()
  }
}
