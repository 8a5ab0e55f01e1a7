/** A real SMTP server on a free port that keeps what it receives: the mailbox of the browser tests. */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface Mail {
  from: string | undefined
  to: string[]
  /** The message as sent, quoted-printable soft breaks joined. */
  raw: string
  /** The message exactly as received. */
  source: string
}

/** A mail's Subject and its plain-text and HTML parts, decoded (quoted-printable, base64 or 7bit; RFC 2047 words). */
export function partsOf(mail: Mail): { subject: string; text: string; html: string } {
  const [head] = mail.source.split(/\r?\n\r?\n/, 1)
  const header = (name: string, of: string) => new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(of)?.[1].replace(/\r?\n[ \t]+/g, ' ')
  const subject = (header('Subject', head) ?? '').replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_, kind: string, words: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(words, 'base64').toString('utf8') : quotedPrintable(words.replace(/_/g, ' ')),
  )
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1]
  const found = { subject, text: '', html: '' }
  for (const part of boundary ? mail.source.split(`--${boundary}`) : []) {
    const at = part.search(/\r?\n\r?\n/)
    if (at < 0) continue
    const [headers, body] = [part.slice(0, at), part.slice(at).replace(/^\r?\n\r?\n/, '').replace(/\r?\n$/, '')]
    const type = /^content-type:\s*text\/(plain|html)/im.exec(headers)?.[1]
    if (!type) continue
    const encoding = header('Content-Transfer-Encoding', headers)?.trim().toLowerCase()
    const decoded = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? quotedPrintable(body.replace(/=\r?\n/g, '')) : body
    found[type === 'plain' ? 'text' : 'html'] = decoded.replace(/\r\n/g, '\n')
  }
  return found
}

function quotedPrintable(text: string): string {
  const bytes: number[] = []
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3)) ? text.slice(i + 1, i + 3) : undefined
    if (hex) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else bytes.push(...Buffer.from(text[i], 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
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
        const source = Buffer.concat(chunks).toString('utf8')
        const raw = source.replace(/=\r?\n/g, '')
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, source })
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
