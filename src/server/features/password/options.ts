/** A `Password()` provider's options, resolved at start-up, and what it needs of the adapter. */
import type { PasswordConfig, PasswordEmail, PasswordOptions } from '../../../providers/password.js'
import type { Awaitable, EmailConfig } from '../../../core/types.js'
import { configurationError } from '../../../core/errors.js'
import { sendSmtp, type NodemailerModule } from '../../../providers/lib/smtp.js'
import { instanceKey } from '../../kernel/state.js'
import type { ResolvedConfig } from '../../kernel/types.js'
import { absentMethods } from '../../kernel/adapter-methods.js'
import { resolvePasswordLengths, type PasswordLengths } from './lengths.js'
import type { BreachCheckOptions } from './breached.js'

export interface ResolvedPassword extends PasswordLengths {
  id: string
  sendEmail: (message: PasswordEmail) => Awaitable<void>
  breached: BreachCheckOptions | false
  requireVerifiedEmail: boolean
  endOtherSessions: boolean
  linkMaxAge: number
}

/** Passwords, users by address, and the one-time links and codes the emails carry. */
export const passwordMethods = ['getPasswordHash', 'setPasswordHash', 'getUser', 'getUserByEmail', 'createUser', 'updateUser', 'createVerificationToken', 'useVerificationToken', 'createVerificationCode', 'useVerificationCode'] as const

/** Each Password provider's options, by provider id. */
const byId = instanceKey<Map<string, ResolvedPassword>>('password options')

export function resolvePassword(provider: PasswordConfig, resolved: ResolvedConfig): ResolvedPassword {
  const given: PasswordOptions = provider.options ?? {}
  const adapter = resolved.adapter
  // The code methods are not among them where verification tokens keep the codes.
  const missing = absentMethods(adapter, passwordMethods)
  if (missing.length) {
    throw configurationError(
      `latchkey: the Password provider "${provider.id}" needs ${adapter ? 'the adapter methods ' + missing.join(', ') : 'an adapter (accounts and their passwords are stored)'}; ` +
        `latchkey's memory and SQL adapters have them (docs/data.md#passwords)`,
    )
  }
  const linkMaxAge = given.linkMaxAge ?? 3600
  if (!(linkMaxAge >= 300 && linkMaxAge <= 7 * 86400)) throw configurationError(`latchkey: Password linkMaxAge must be from 300 to 604800 seconds, got ${linkMaxAge}`)
  const options: ResolvedPassword = {
    id: provider.id,
    ...resolvePasswordLengths(given.minLength, given.maxLength),
    sendEmail: senderOf(given, resolved, provider.id),
    breached: given.breached === false ? false : { ...given.breached },
    requireVerifiedEmail: given.requireVerifiedEmail ?? true,
    endOtherSessions: given.endOtherSessions ?? true,
    linkMaxAge,
  }
  byId.ensure(resolved, () => new Map()).set(provider.id, options)
  return options
}

/** The resolved options of the Password provider `id` of this instance. */
export function passwordOptions(config: ResolvedConfig, id: string): ResolvedPassword | undefined {
  return byId.find(config)?.get(id)
}

/**
 * Who delivers the emails: `sendEmail`; else SMTP to `server` from `from`; else an email provider
 * that delivers messages latchkey writes (`sendMail`: the Nodemailer provider, which also signs
 * in by link); else a start-up error with the fix.
 */
function senderOf(given: PasswordOptions, resolved: ResolvedConfig, id: string): ResolvedPassword['sendEmail'] {
  const smtp = given.server !== undefined || given.from !== undefined
  if (given.sendEmail) {
    if (smtp) throw configurationError(`latchkey: the Password provider "${id}" has sendEmail and server or from; pass sendEmail (your mailer) or server and from (SMTP), not both`)
    return given.sendEmail
  }
  if (smtp) {
    const missing = given.server ? 'from (the sender address)' : 'server (an SMTP URL or nodemailer\'s transport options)'
    if (!given.server || !given.from) throw configurationError(`latchkey: the Password provider "${id}" sends by SMTP with server and from; its ${missing} is missing`)
    const settings = { server: given.server, from: given.from }
    return ({ to, subject, text, html }) => sendSmtp('Password', loadNodemailer, settings, { to, subject, text, html })
  }
  const provider = [...resolved.providers.values()].find((p) => p.type === 'email' && typeof (p as EmailConfig).sendMail === 'function') as EmailConfig | undefined
  if (!provider) {
    throw configurationError(
      `latchkey: the Password provider "${id}" sends emails (address confirmation, password reset): pass it server and from (SMTP through nodemailer), or sendEmail (your own mailer)`,
    )
  }
  return ({ to, subject, text, html }) => provider.sendMail!({ to, subject, text, html })
}

/**
 * nodemailer, from the app's node_modules when the first email goes. By a name a bundler leaves
 * alone: this module is in every server bundle, Web runtimes' too, where nodemailer cannot run.
 */
const nodemailer = 'nodemailer'
const loadNodemailer = async () => (await import(nodemailer)) as NodemailerModule
