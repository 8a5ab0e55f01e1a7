/** latchkey/components: sign-in custom elements. */
export { defineElements } from './define-elements.js'
export { errorMessage } from './messages.js'
