/**
 * The drop-in script's passkey part: `<script src="/latchkey-passkey.iife.js"></script>` after
 * `latchkey.iife.js` attaches the passkey client to `Latchkey.client`, so `<latchkey-signin>`
 * shows its passkey button and offers passkeys in the username field's autofill, and
 * `Latchkey.client.passkey` registers, lists and removes them. It adds `createPasskeyClient` and
 * `PasskeyError` to the global. A separate file, so pages without passkeys do not load it.
 */
import type { AuthClient } from '../client/index.js'
import { createPasskeyClient, PasskeyError } from '../client/passkey/index.js'

const dropIn = (globalThis as { Latchkey?: { client?: AuthClient } }).Latchkey
if (!dropIn?.client) throw new Error('latchkey-passkey.iife.js: load latchkey.iife.js first, in an earlier <script>')
const { client } = dropIn
client.passkey = createPasskeyClient({ basePath: client.basePath, getCsrfToken: client.getCsrfToken })

export { createPasskeyClient, PasskeyError }
