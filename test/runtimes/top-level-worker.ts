/**
 * A module Worker that builds latchkey at its top with every built-in way in (and second factors,
 * more languages, the memory adapter): guide.test.ts starts it in workerd, which refuses a start
 * that makes a random value, sets a timer or does I/O. Without Node compatibility: the secret is
 * written here.
 */
import { MemoryAdapter } from 'latchkey/adapters/memory'
import Credentials from 'latchkey/providers/credentials'
import Email from 'latchkey/providers/email'
import GitHub from 'latchkey/providers/github'
import Google from 'latchkey/providers/google'
import Passkey from 'latchkey/providers/passkey'
import Password from 'latchkey/providers/password'
import { Latchkey } from 'latchkey/server'

const auth = Latchkey({
  secret: 'a-secret-the-guide-test-sets-of-32-chars',
  adapter: MemoryAdapter(),
  mfa: { issuer: 'Top level' },
  languages: ['en', 'fr', 'ar'],
  providers: [
    Credentials({ authorize: async () => null }),
    Email({ sendVerificationRequest: async () => {} }),
    Passkey(),
    GitHub({ clientId: 'id', clientSecret: 'secret' }),
    Google({ clientId: 'id', clientSecret: 'secret' }),
    Password({ sendEmail: async () => {} }),
  ],
})

export default { fetch: auth }
