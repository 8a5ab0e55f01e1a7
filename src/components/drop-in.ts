/**
 * The drop-in script: `<script src="/latchkey.iife.js" data-base-path="/auth"></script>` makes one
 * global, `Latchkey`, with a ready client, and registers the components. `data-service-worker`
 * names the worker script, or "false" for none.
 */
import { createAuthClient, AuthClientError } from '../client/index.js'
import { defineElements } from './define-elements.js'

const data = (document.currentScript as HTMLScriptElement | null)?.dataset ?? {}
const sw = data.serviceWorker
export const client = createAuthClient({ basePath: data.basePath, serviceWorker: sw === 'false' ? false : sw })
defineElements(client)
export { createAuthClient, AuthClientError, defineElements }
