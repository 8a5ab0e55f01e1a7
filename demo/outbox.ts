/** The emails the demo has sent, newest first, and the page that lists them (GET /outbox). */
import type { SendVerificationRequestParams } from '../src/core/types.js'
import { layout, escapeHtml as e } from './page.js'

export interface Mail {
  to: string
  url: string
  expires: Date
  sent: Date
  /** Also sent over SMTP. */
  smtp: boolean
}

export function createOutbox() {
  const mails: Mail[] = []
  let sent = 0
  return {
    mails,
    /** How many were ever sent: the outbox page reloads when it changes. */
    count: () => sent,
    add(params: Pick<SendVerificationRequestParams, 'identifier' | 'url' | 'expires'>, smtp: boolean): void {
      sent++
      mails.unshift({ to: params.identifier, url: params.url, expires: params.expires, sent: new Date(), smtp })
      mails.length = Math.min(mails.length, 50)
    },
    page(): string {
      const time = (d: Date) => d.toLocaleTimeString('en-GB')
      const rows = mails.map((m) => `<li class="mail">
  <div class="mail-head"><b>To ${e(m.to)}</b><span class="muted">sent ${time(m.sent)} · valid for ${Math.round((m.expires.getTime() - m.sent.getTime()) / 3_600_000)} h${m.smtp ? ' · also sent by SMTP' : ''}</span></div>
  <p>Sign in to latchkey demo: <a class="signin-link" href="${e(m.url)}">Sign in</a></p>
  <code class="small">${e(m.url)}</code>
</li>`)
      const body = `<section class="card">
  <h2>Outbox</h2>
  <p class="muted">The sign-in links the email provider sent, newest first. Open one to finish signing in; new ones appear by themselves.</p>
  <ul class="mails">${rows.join('') || '<li class="empty">No email yet. Ask for a link with “Sign in with Email”.</li>'}</ul>
</section>`
      // Reloads when a new email arrives.
      const watch = `<script>setInterval(async () => { const n = await (await fetch('/outbox?count')).text(); if (n !== '${sent}') location.reload() }, 2000)</script>`
      return layout('Outbox', 'outbox', body + watch)
    },
  }
}

export type Outbox = ReturnType<typeof createOutbox>
