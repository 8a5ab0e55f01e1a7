/**
 * The drop-in script: `<script src="/latchkey.iife.js" data-base-path="/auth"></script>` makes one
 * global, `Latchkey`, with a ready client, and registers the components. Without
 * `data-service-worker` the client uses the page's worker if it includes latchkey's and registers
 * nothing; `data-service-worker="/latchkey-sw.js"` registers latchkey's own worker (never over
 * another script), "false" keeps sessions in the page.
 */
import { createAuthClient, AuthClientError } from '../client/index.js'
import { defineElements } from './define-elements.js'

const data = (document.currentScript as HTMLScriptElement | null)?.dataset ?? {}
const sw = data.serviceWorker
export const client = createAuthClient({ basePath: data.basePath, serviceWorker: sw === 'false' ? false : sw || true })
defineElements(client)
export { createAuthClient, AuthClientError, defineElements }
