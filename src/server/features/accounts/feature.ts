/** The signed-in user's linked accounts: /accounts. */
import type { Feature } from '../../kernel/feature.js'
import { getAccounts, postAccounts } from './routes.js'

export const accounts: Feature = { name: 'accounts', routes: { accounts: { GET: getAccounts, POST: postAccounts } } }
