/** latchkey/components: sign-in custom elements. */
import './language-files.js'
export { defineElements } from './define-elements.js'
export { errorMessage } from './messages.js'
export type { Words } from './words.js'
export type { SignInHost, SignInRenderer } from './sign-in-host.js'
