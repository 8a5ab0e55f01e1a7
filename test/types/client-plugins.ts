/**
 * Type test of the client's plugins and of sessions typed end to end (compiled by `tsc --noEmit`):
 * a plugin's namespace is on the client's type only where the plugin is passed, and the browser's
 * session is the server's `SessionOf<typeof auth>`.
 */
import { accounts, createAuthClient, mfa, password, sessions, typeOf, type AuthClient, type ClientPlugin, type Session } from '../../src/client/index.js'
import { passkey } from '../../src/client/passkey/index.js'
import { Latchkey, type SessionOf } from '../../src/server/index.js'
import { useSession } from '../../src/bindings/react.js'

export async function namespaces() {
  const bare = createAuthClient()
  // @ts-expect-error no mfa plugin passed, so no client.mfa
  void bare.mfa
  // @ts-expect-error nor client.passkey
  void bare.passkey
  const full = createAuthClient({ basePath: '/auth', plugins: [mfa(), password(), sessions(), accounts(), passkey()] })
  const factors = await full.mfa.list()
  await full.password.status()
  await full.sessions.revokeOthers()
  await full.accounts.unlink('github')
  await full.passkey.rename('id', 'Phone')
  // @ts-expect-error emailCodes() was not passed
  void full.email
  return factors.recoveryCodes
}

// A plugin of the app's own: its namespace is typed from what `setup` answers.
const greeting = (): ClientPlugin<'greeting', { hello(): Promise<string> }> => ({
  name: 'greeting',
  setup: ({ get }) => ({ hello: async () => (await get<{ hello: string }>('/hello')).hello }),
})
export async function ownPlugin(): Promise<string> {
  const client = createAuthClient({ plugins: [greeting(), mfa()] })
  await client.mfa.methods()
  return client.greeting.hello()
}

// The server's session type, carried to the browser by type only.
const auth = Latchkey({
  secret: 'x'.repeat(32),
  providers: [],
  callbacks: { session: ({ session }) => ({ ...session, role: 'admin' as 'admin' | 'member', teamId: 7 }) },
})
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

export async function typedSessions() {
  const withPlugins = createAuthClient({ server: typeOf<typeof auth>(), plugins: [mfa()] })
  const session = await withPlugins.getSession()
  const same: Same<NonNullable<typeof session>, SessionOf<typeof auth>> = true
  const role: 'admin' | 'member' | undefined = withPlugins.session?.role
  // @ts-expect-error teamId is a number on the server, so in the browser too
  const team: string | undefined = session?.teamId
  await withPlugins.mfa.list()
  withPlugins.onSessionChange((s) => void (s?.teamId satisfies number | undefined))

  // Without plugins, the server's type as the type argument.
  const plain = createAuthClient<typeof auth>()
  const updated = await plain.update({ role: 'member' })
  const teamId: number | undefined = updated?.teamId
  // @ts-expect-error a type argument alone infers no plugin: pass `server: typeOf<typeof auth>()` with plugins
  createAuthClient<typeof auth>({ plugins: [mfa()] })

  // No server type: the plain Session, whose custom fields are unknown.
  const untyped: Session | null = await createAuthClient().getSession()
  // @ts-expect-error no server type given, so no `role`
  const none: string | undefined = untyped?.role

  // The bindings and the elements take any of these clients.
  const generic: AuthClient = withPlugins
  const fromHook: number | undefined = useSession(withPlugins).data?.teamId
  return [same, role, team, teamId, none, generic, fromHook]
}
