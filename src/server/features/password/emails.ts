/** The words of the password emails: latchkey writes them, the app's `sendEmail` delivers them. */
import type { PasswordEmail } from '../../../providers/password.js'
import { escapeHtml } from '../../routes/page-html.js'

type Kind = PasswordEmail['kind']

const texts: Record<Kind, (host: string) => { subject: string; lead: string; action?: string; after: string }> = {
  'verify-email': (host) => ({
    subject: `Confirm your email address for ${host}`,
    lead: `Confirm this address to finish creating your account on ${host}.`,
    action: 'Confirm my address',
    after: 'If you did not create an account, ignore this email: nothing happens without the confirmation.',
  }),
  'account-exists': (host) => ({
    subject: `You already have an account on ${host}`,
    lead: `Someone tried to create an account on ${host} with this address, which already has one. If it was you, sign in, or reset your password:`,
    action: 'Reset my password',
    after: 'If it was not you, you can ignore this email: nothing was changed.',
  }),
  'reset-password': (host) => ({
    subject: `Reset your password for ${host}`,
    lead: `Choose a new password for your account on ${host}.`,
    action: 'Choose a new password',
    after: 'If you did not ask for this, ignore this email: your password stays as it is.',
  }),
  'password-changed': (host) => ({
    subject: `Your password for ${host} was changed`,
    lead: `The password of your account on ${host} was just changed.`,
    after: 'If this was not you, reset your password now and review your devices.',
  }),
}

/** The email of `kind` to `to`, with its link and code where it has them. */
export function passwordEmail(kind: Kind, to: string, host: string, link?: { url: string; code?: string; minutes: number }): PasswordEmail {
  const t = texts[kind](host)
  const codeLine = link?.code ? `Or enter this code where you asked: ${link.code}` : ''
  const expiry = link ? `The link works for ${link.minutes} minutes${link.code ? ', the code for 10' : ''}.` : ''
  const text = [t.lead, link && t.action ? `${t.action}: ${link.url}` : '', codeLine, expiry, t.after].filter(Boolean).join('\n\n')
  const html =
    `<p>${escapeHtml(t.lead)}</p>` +
    (link && t.action ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(t.action)}</a></p>` : '') +
    (link?.code ? `<p>Or enter this code where you asked: <strong>${escapeHtml(link.code)}</strong></p>` : '') +
    (expiry ? `<p>${escapeHtml(expiry)}</p>` : '') +
    `<p>${escapeHtml(t.after)}</p>`
  return { to, kind, subject: t.subject, text, html, ...(link && { url: link.url }), ...(link?.code && { code: link.code }) }
}
