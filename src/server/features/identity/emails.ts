/**
 * The email change's two messages, through the one email template (kernel/email-message.ts), in
 * the language of the request that asked: the link to the new address, and the notice to the old.
 */
import { renderEmail, type EmailMessage } from '../../kernel/email-message.js'
import type { PageWords } from '../../kernel/page-language.js'
import type { RequestTheme } from '../../kernel/theme.js'

/** To the new address: its one button confirms it (the link works `maxAge` seconds). */
export function confirmationEmail(words: PageWords, theme: RequestTheme, host: string, url: string, maxAge: number): EmailMessage {
  return renderEmail(words, theme, host, {
    subject: 'emailChangeSubject',
    lead: 'emailChangeLead',
    action: { label: 'useThisAddress', url },
    expiry: { link: maxAge },
    footer: 'emailChangeAfter',
  })
}

/** To the old address: a change was asked, and happens only once the new address is confirmed. */
export function noticeEmail(words: PageWords, theme: RequestTheme, host: string): EmailMessage {
  return renderEmail(words, theme, host, { subject: 'emailChangeNoticeSubject', lead: 'emailChangeNoticeLead', footer: 'emailChangeNoticeAfter' })
}
