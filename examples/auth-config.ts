/** The latchkey configuration every server example shares: any name, password "demo". */
import { MemoryAdapter } from 'latchkey/adapters/memory'
import Credentials from 'latchkey/providers/credentials'
import type { AuthConfig } from 'latchkey/server'

export function exampleConfig(): AuthConfig {
  return {
    secret: process.env.AUTH_SECRET ?? 'an-example-secret-of-32-characters',
    adapter: MemoryAdapter(),
    providers: [
      Credentials({
        credentials: { username: { label: 'Name' }, password: { label: 'Password', type: 'password' } },
        // Replace with your own check.
        authorize: async ({ username, password }) =>
          password === 'demo' && typeof username === 'string' ? { id: username, name: username, email: `${username}@example.com` } : null,
      }),
    ],
  }
}
