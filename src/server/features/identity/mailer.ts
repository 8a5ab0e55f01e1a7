/**
 * Who delivers the email change's messages, which latchkey writes: an email provider that
 * delivers messages latchkey wrote (`sendMail`: the Nodemailer provider has it, and any
 * `Email({ sendMail })`). Without one, the address cannot be changed here: GET /identity says so
 * (`emailChange: false`) and the request is 501 `NotSupported` with the fix.
 */
import { AuthError } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'
import { findMailer, type SendMail } from '../../kernel/mailer.js'

export { findMailer }
export type Send = SendMail

/** The configured sender, or 501 `NotSupported` naming what to configure. */
export function mailer(ctx: Context): Send {
  const send = findMailer(ctx)
  if (!send) {
    throw new AuthError('NotSupported', 'Changing the email address needs an email provider that delivers the messages latchkey writes: the Nodemailer provider, or sendMail on your Email provider', { status: 501 })
  }
  return send
}
