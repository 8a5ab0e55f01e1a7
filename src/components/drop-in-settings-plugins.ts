/**
 * The drop-in script's settings plugins, in its settings part (latchkey-settings.js), where
 * `<latchkey-organization-switcher>`, `<latchkey-organization>`, `<latchkey-connected-apps>` and
 * `<latchkey-profile>` are: loaded with them, it adds `organizations()`, `connectedApps()`,
 * `ssoConnections()` and `scimTokens()` to `Latchkey.client` before they are defined, so a sign-in
 * page does not carry them. Without the drop-in (an ESM page importing the part) it does nothing.
 */
import type { ClientPlugin } from '../client/plugin.js'
import { connectedApps } from '../client/plugins/connected-apps.js'
import { organizations } from '../client/plugins/organizations.js'
import { scimTokens } from '../client/plugins/scim-tokens.js'
import { ssoConnections } from '../client/plugins/sso-connections.js'

const client = (globalThis as { Latchkey?: { client?: Record<string, unknown> & { use?: (plugin: ClientPlugin) => void } } }).Latchkey?.client
// The enterprise sign-in part of <latchkey-organization> (<latchkey-sso-setup>) is small, and used
// only where an admin opens it; a server without the oauth-server plugin answers the connected
// apps' read UnknownAction, and <latchkey-profile> leaves that section out.
const plugins = [organizations, connectedApps, ssoConnections, scimTokens].map((make) => make())
if (client?.use) for (const plugin of plugins) if (!client[plugin.name]) client.use(plugin)
