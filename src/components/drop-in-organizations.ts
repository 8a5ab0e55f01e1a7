/**
 * The drop-in script's organizations plugin, in its settings part (latchkey-settings.js), where
 * `<latchkey-organization-switcher>`, `<latchkey-organization>` and `<latchkey-profile>` are: loaded
 * with them, it adds `organizations()` to `Latchkey.client` before they are defined, so a sign-in
 * page does not carry it. Without the drop-in (an ESM page importing the part) it does nothing.
 */
import type { ClientPlugin } from '../client/plugin.js'
import { organizations } from '../client/plugins/organizations.js'
import { scimTokens } from '../client/plugins/scim-tokens.js'
import { ssoConnections } from '../client/plugins/sso-connections.js'

const dropIn = (globalThis as { Latchkey?: { client?: { organizations?: unknown; use?: (plugin: ClientPlugin) => void } } }).Latchkey
if (dropIn?.client?.use && !dropIn.client.organizations) dropIn.client.use(organizations())
// The enterprise sign-in part of <latchkey-organization> (<latchkey-sso-setup>): small, and used only where an admin opens it.
for (const [name, make] of [['ssoConnections', ssoConnections], ['scimTokens', scimTokens]] as const) if (dropIn?.client?.use && !(dropIn.client as Record<string, unknown>)[name]) dropIn.client.use(make())
