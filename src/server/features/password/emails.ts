/**
 * The words of the password emails: latchkey writes them, the app's `sendEmail` delivers them.
 * They are in the language of the request that sends them (page-language.ts), the best guess
 * latchkey has of the reader's.
 */
import type { PasswordEmail } from '../../../providers/password.js'
import type { PageKey, PageWords } from '../../kernel/page-language.js'
import { escapeHtml } from '../../kernel/page-html.js'

type Kind = PasswordEmail['kind']

const texts: Record<Kind, { subject: PageKey; lead: PageKey; action?: PageKey; after: PageKey }> = {
  'verify-email': { subject: 'verifySubject', lead: 'verifyLead', action: 'confirmMyAddress', after: 'verifyAfter' },
  'account-exists': { subject: 'existsSubject', lead: 'existsLead', action: 'resetMyPassword', after: 'existsAfter' },
  'reset-password': { subject: 'resetSubject', lead: 'resetLead', action: 'chooseNewPassword', after: 'resetAfter' },
  'password-changed': { subject: 'changedSubject', lead: 'changedLead', after: 'changedAfter' },
}

/** How long a password email's code works, in minutes. */
const codeMinutes = 10

/** What an email is about: its kind, to whom, the site's host, and its link and code where it has them. */
export type EmailOf = [kind: Kind, to: string, host: string, link?: { url: string; code?: string; minutes: number }]

/** The email of `kind` to `to`, in `words`' language. */
export function passwordEmail(words: PageWords, ...[kind, to, host, link]: EmailOf): PasswordEmail {
  const t = texts[kind]
  const say = (key: PageKey) => words.text(key, { host })
  const [lead, after] = [say(t.lead), say(t.after)]
  const action = link && t.action ? say(t.action) : ''
  const duration = link && new Intl.NumberFormat(words.lang, { style: 'unit', unit: 'minute', unitDisplay: 'long', useGrouping: false }).format(link.minutes)
  const expiry = duration ? words.text(link.code ? 'linkAndCodeWorkFor' : 'linkWorksFor', { duration, codeMinutes }) : ''
  const text = [lead, action && `${action}: ${link!.url}`, link?.code ? words.text('orEnterCode', { code: link.code }) : '', expiry, after].filter(Boolean).join('\n\n')
  const html =
    `<p>${escapeHtml(lead)}</p>` +
    (action ? `<p><a href="${escapeHtml(link!.url)}">${escapeHtml(action)}</a></p>` : '') +
    (link?.code ? `<p>${words.html('orEnterCode', {}, { code: `<strong>${escapeHtml(link.code)}</strong>` })}</p>` : '') +
    (expiry ? `<p>${escapeHtml(expiry)}</p>` : '') +
    `<p>${escapeHtml(after)}</p>`
  return { to, kind, subject: say(t.subject), text, html, ...(link && { url: link.url }), ...(link?.code && { code: link.code }) }
}
