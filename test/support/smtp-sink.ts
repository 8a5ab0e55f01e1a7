/** A real SMTP server on a free port that keeps what it receives: the mailbox of the browser tests. */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface Mail {
  from: string | undefined
  to: string[]
  /** The message as sent, quoted-printable soft breaks joined. */
  raw: string
}

export interface SmtpSink {
  port: number
  mails: Mail[]
  /** The one-time code of the last mail to `to`; throws when there is none. */
  codeFor(to: string): string
  close(): Promise<void>
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: Mail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8').replace(/=\r?\n/g, '')
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    codeFor(to) {
      const mail = mails.findLast((m) => m.to.includes(to))
      const code = mail && /enter this code[^:\r\n]*:\r?\n([A-Z0-9]+)/.exec(mail.raw)?.[1]
      if (!code) throw new Error(`No mail with a code to ${to} (${mails.length} received)`)
      return code
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
