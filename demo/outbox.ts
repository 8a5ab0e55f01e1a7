/** The emails the demo has sent, newest first, and the page that lists them (GET /outbox). */
import type { SendVerificationRequestParams } from '../src/core/types.js'
import { layout, escapeHtml as e } from './page.js'

export interface Mail {
  to: string
  /** A sign-in link, or none for a notice. */
  url?: string
  expires?: Date
  /** The one-time code beside the link, and when it expires. */
  code?: string
  codeExpires?: Date
  /** A notice's text (a new way to sign in was added), or a password email's words. */
  text?: string
  /** A password email's subject (the Password provider writes its emails). */
  subject?: string
  sent: Date
  /** Also sent over SMTP. */
  smtp: boolean
}

export function createOutbox() {
  const mails: Mail[] = []
  let sent = 0
  const keep = (mail: Mail) => {
    sent++
    mails.unshift(mail)
    mails.length = Math.min(mails.length, 50)
  }
  return {
    mails,
    /** How many were ever sent: the outbox page reloads when it changes. */
    count: () => sent,
    add(params: Pick<SendVerificationRequestParams, 'identifier' | 'url' | 'expires' | 'code' | 'codeExpires'>, smtp: boolean): void {
      keep({ to: params.identifier, url: params.url, expires: params.expires, code: params.code, codeExpires: params.codeExpires, sent: new Date(), smtp })
    },
    /** An email the Password provider wrote (confirm the address, reset the password, a change), outbox only. */
    letter(message: { to: string; subject: string; text: string; url?: string; code?: string }): void {
      keep({ to: message.to, subject: message.subject, text: message.text, url: message.url, code: message.code, sent: new Date(), smtp: false })
    },
    /** A notice to the account's owner, outbox only. */
    notify(to: string, text: string): void {
      keep({ to, text, sent: new Date(), smtp: false })
    },
    page(): string {
      const time = (d: Date) => d.toLocaleTimeString('en-GB')
      const rows = mails.map((m) =>
        m.subject
          ? `<li class="mail letter">
  <div class="mail-head"><b>To ${e(m.to)}</b><span class="muted">sent ${time(m.sent)}</span></div>
  <p><b>${e(m.subject)}</b></p>
  ${(m.text ?? '').split('\n\n').map((para) => `<p>${e(para)}</p>`).join('')}${m.url ? `\n  <p><a class="mail-link" href="${e(m.url)}">Open the link</a></p>` : ''}${m.code ? `\n  <p>Code: <b class="code">${e(m.code)}</b></p>` : ''}
</li>`
          : m.url && m.expires
          ? `<li class="mail">
  <div class="mail-head"><b>To ${e(m.to)}</b><span class="muted">sent ${time(m.sent)} · valid for ${Math.round((m.expires.getTime() - m.sent.getTime()) / 3_600_000)} h${m.smtp ? ' · also sent by SMTP' : ''}</span></div>
  <p>Sign in to latchkey demo: <a class="signin-link" href="${e(m.url)}">Sign in</a></p>${
    m.code && m.codeExpires
      ? `\n  <p>Or enter this code where you typed your address (valid for ${Math.round((m.codeExpires.getTime() - m.sent.getTime()) / 60_000)} min): <b class="code">${e(m.code)}</b></p>`
      : ''
  }
  <code class="small">${e(m.url)}</code>
</li>`
          : `<li class="mail notice">
  <div class="mail-head"><b>To ${e(m.to)}</b><span class="muted">sent ${time(m.sent)}</span></div>
  <p>${e(m.text ?? '')}</p>
</li>`,
      )
      const body = `<section class="card">
  <h2>Outbox</h2>
  <p class="muted">The sign-in links and codes the email provider sent, and notices of new ways to sign in, newest first. Open one to finish signing in; new ones appear by themselves.</p>
  <ul class="mails">${rows.join('') || '<li class="empty">No email yet. Ask for a link with “Sign in with Email”.</li>'}</ul>
</section>`
      // Reloads when a new email arrives.
      const watch = `<script>setInterval(async () => { const n = await (await fetch('/outbox?count')).text(); if (n !== '${sent}') location.reload() }, 2000)</script>`
      return layout('Outbox', 'outbox', body + watch)
    },
  }
}

export type Outbox = ReturnType<typeof createOutbox>
