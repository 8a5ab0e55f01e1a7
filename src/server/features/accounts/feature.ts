/** The signed-in user's linked accounts: /accounts. */
import type { LatchkeyPlugin } from '../../kernel/plugin.js'
import { getAccounts, postAccounts } from './routes.js'

export const accounts: LatchkeyPlugin = { id: 'accounts', errorCodes: ['LastSignInMethod'], routes: { accounts: { GET: getAccounts, POST: postAccounts } } }
