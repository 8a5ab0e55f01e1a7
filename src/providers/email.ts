import type { EmailConfig } from '../core/types.js'

/** The generic email provider: the app brings `sendVerificationRequest` (SMTP, an API, a queue). */
export default function Email(options: Partial<EmailConfig> & Pick<EmailConfig, 'sendVerificationRequest'>): EmailConfig {
  return { id: 'email', name: 'Email', type: 'email', maxAge: 24 * 60 * 60, ...options }
}
