/**
 * The client plugins the elements use. An element whose plugin the client lacks says which to
 * pass, once per plugin, in the console, and its action fails with `PluginMissing` (shown in
 * words, never a crash).
 */
import type { AccountsClient, AuthClient, ConnectedAppsClient, EmailCodesClient, IdentityClient, MfaClient, OrganizationsClient, PasswordClient, ScimTokensClient, SessionsClient, SsoClient, SsoConnectionsClient } from '../client/index.js'
import type { PasskeyClient } from '../client/passkey/index.js'

export interface Plugged {
  mfa: MfaClient
  password: PasswordClient
  email: EmailCodesClient
  sessions: SessionsClient
  accounts: AccountsClient
  identity: IdentityClient
  organizations: OrganizationsClient
  connectedApps: ConnectedAppsClient
  ssoConnections: SsoConnectionsClient
  scimTokens: ScimTokensClient
  passkey: PasskeyClient
  sso: SsoClient
}

/** Each namespace's plugin where its name differs. */
const factories: Partial<Record<keyof Plugged, string>> = { email: 'emailCodes' }
const told = new Set<string>()

/** The namespace `name`, where the client has it. */
export const maybe = <K extends keyof Plugged>(client: AuthClient, name: K): Plugged[K] | undefined => (client as Partial<Plugged>)[name]

/** The namespace `name`; without it, the console says which plugin to pass, and this throws `PluginMissing`. */
export function need<K extends keyof Plugged>(client: AuthClient, name: K, element: string): Plugged[K] {
  const found = maybe(client, name)
  if (found) return found
  const plugin = factories[name] ?? name
  const advice = `<${element}> needs the ${plugin} plugin: createAuthClient({ plugins: [${plugin}()] }), ${plugin} from latchkey${name === 'passkey' ? '/passkey' : ''}`
  if (!told.has(advice)) console.error('latchkey: ' + advice)
  told.add(advice)
  throw Object.assign(new Error(advice), { code: 'PluginMissing' })
}
