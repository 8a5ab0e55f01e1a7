/**
 * The drop-in script's organizations plugin, in its settings part (latchkey-settings.js), where
 * `<latchkey-organization-switcher>`, `<latchkey-organization>` and `<latchkey-profile>` are: loaded
 * with them, it adds `organizations()` to `Latchkey.client` before they are defined, so a sign-in
 * page does not carry it. Without the drop-in (an ESM page importing the part) it does nothing.
 */
import type { ClientPlugin } from '../client/plugin.js'
import { organizations } from '../client/plugins/organizations.js'

const dropIn = (globalThis as { Latchkey?: { client?: { organizations?: unknown; use?: (plugin: ClientPlugin) => void } } }).Latchkey
if (dropIn?.client?.use && !dropIn.client.organizations) dropIn.client.use(organizations())
