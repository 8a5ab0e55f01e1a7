/**
 * The words of the password emails: latchkey writes them (through the one email template,
 * kernel/email-message.ts), the app's `sendEmail` delivers them. They are in the language of the
 * request that sends them (page-language.ts), the best guess latchkey has of the reader's.
 */
import type { PasswordEmail } from '../../../providers/password.js'
import { renderEmail } from '../../kernel/email-message.js'
import type { PageKey, PageWords } from '../../kernel/page-language.js'
import type { RequestTheme } from '../../kernel/theme.js'

type Kind = PasswordEmail['kind']

const texts: Record<Kind, { subject: PageKey; lead: PageKey; action?: PageKey; after: PageKey }> = {
  'verify-email': { subject: 'verifySubject', lead: 'verifyLead', action: 'confirmMyAddress', after: 'verifyAfter' },
  'account-exists': { subject: 'existsSubject', lead: 'existsLead', action: 'resetMyPassword', after: 'existsAfter' },
  'reset-password': { subject: 'resetSubject', lead: 'resetLead', action: 'chooseNewPassword', after: 'resetAfter' },
  'password-changed': { subject: 'changedSubject', lead: 'changedLead', after: 'changedAfter' },
}

/** A password email's link and code, and how many seconds each works. */
export interface EmailLink {
  url: string
  code?: string
  maxAge: number
  codeMaxAge: number
}

/** What an email is about: its kind, to whom, and its link and code where it has them. */
export type EmailOf = [kind: Kind, to: string, link?: EmailLink]

/** The email of `kind` to `to`, for `theme`'s app on `host`, in `words`' language. */
export function passwordEmail(words: PageWords, theme: RequestTheme, host: string, ...[kind, to, link]: EmailOf): PasswordEmail {
  const t = texts[kind]
  const shown = t.action ? link : undefined
  const code = shown?.code
  const message = renderEmail(words, theme, host, {
    subject: t.subject,
    lead: t.lead,
    action: shown && t.action && { label: t.action, url: shown.url },
    code: code ? { lead: 'orEnterCode', value: code } : undefined,
    expiry: shown && { link: shown.maxAge, code: code ? shown.codeMaxAge : undefined },
    footer: t.after,
  })
  return { to, kind, ...message, ...(shown && { url: shown.url }), ...(code && { code }) }
}
